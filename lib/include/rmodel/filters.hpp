#pragma once
/// @file filters.hpp
/// The filters library (SPEC §3): discrete-time dynamic blocks with a fixed period T and
/// the MATLAB S-function interface —
///     start() / start(x0)  reset the state x to x0,
///     output(u)            y[k] = g(x[k], u[k]) without changing the state,
///     update(u)            y[k], then x[k+1] = f(x[k], u[k]),
///     update()             advance with the input last given to output().
/// Each family is a class template over the value type (double, Eigen::VectorXd /
/// KDL::JntArray joint arrays, KDL::Vector, Eigen::Quaterniond / KDL::Rotation, KDL::Frame,
/// KDL::Twist — as each family lists); see space.hpp for how the types are treated.
/// Arrays are sized at construction or start(x0); output/update never allocate, and
/// return references into the filter that stay valid until its next call.
/// Parameters are validated at construction (rmodel::InvalidArgument).
///
/// Variable step: besides the fixed period T, the time-dependent families take the
/// interval since the previous sample, `output(u, Interval{dt})`, `update(u, Interval{dt})`,
/// `update(Interval{dt})`: integrators integrate over it, differentiators differentiate
/// over it, transients and fusion move by v·dt or the exact exp(−dt/τ), the second-order
/// transient substeps it. Each family header says which discretisation; dt == T gives the
/// fixed-step result exactly. Joint arrays also offer `restart_element(i, x0, next_input)`
/// (one component restarted, no allocation), which registry.hpp's restart(i) uses.
///
/// `filters/registry.hpp` adds a runtime catalogue and type-erased joint-array filters for
/// tools that choose a filter by name.

#include "rmodel/filters/differentiators.hpp"
#include "rmodel/filters/fusion.hpp"
#include "rmodel/filters/hysteresis.hpp"
#include "rmodel/filters/integrators.hpp"
#include "rmodel/filters/registry.hpp"
#include "rmodel/filters/second_order.hpp"
#include "rmodel/filters/space.hpp"
#include "rmodel/filters/transfer_function.hpp"
#include "rmodel/filters/transients.hpp"
