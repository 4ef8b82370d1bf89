#pragma once
// Forwarding header, kept for one release: this header is now rmodel/stream/dynamics_stream.hpp (issue 45, an include
// tree that mirrors lib/src). Include that path; this one will be removed.
#include "rmodel/stream/dynamics_stream.hpp"
