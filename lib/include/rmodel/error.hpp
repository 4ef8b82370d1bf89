#pragma once
// Forwarding header, kept for one release: this header is now rmodel/base/error.hpp (issue 45, an include
// tree that mirrors lib/src). Include that path; this one will be removed.
#include "rmodel/base/error.hpp"
