#pragma once
// Forwarding header, kept for one release: this header is now rmodel/model/support.hpp (issue 45, an include
// tree that mirrors lib/src). Include that path; this one will be removed.
#include "rmodel/model/support.hpp"
