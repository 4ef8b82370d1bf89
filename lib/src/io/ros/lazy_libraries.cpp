// The compression libraries (zstd, lz4, bzip2) and SQLite are needed only to read or write
// ROS logs, yet linking them makes every start of the program pay for loading and relocating
// them: SQLite alone is linked with BIND_NOW and costs about a quarter of the instructions of
// `rmodel --version`. So librmodel does not link them: the functions it calls are defined
// here, hidden (never exported, whatever the build's version script), and each forwards to
// the real function (base/lazy_library.hpp). The call sites keep the libraries' own API and
// headers.
//
// This file is compiled on its own (not in a unity batch): the visibility macros below must
// be set before the libraries' headers are first included.

#define ZSTDLIB_VISIBLE __attribute__((visibility("hidden")))
#define LZ4FLIB_VISIBILITY __attribute__((visibility("hidden")))
#define LZ4LIB_VISIBILITY __attribute__((visibility("hidden")))
#define SQLITE_API __attribute__((visibility("hidden")))

#include <atomic>
#include <type_traits>

#pragma GCC visibility push(hidden)
#include <bzlib.h>
#include <lz4frame.h>
#include <sqlite3.h>
#include <zstd.h>
#pragma GCC visibility pop

#include "base/lazy_library.hpp"

namespace {

using rmodel::detail::LazyLibrary;

LazyLibrary zstd_library("libzstd.so.1", "read or write zstd-compressed MCAP chunks");
LazyLibrary lz4_library("liblz4.so.1", "read or write lz4-compressed chunks");
LazyLibrary bz2_library("libbz2.so.1.0", "read bz2-compressed ROS 1 chunks");
LazyLibrary sqlite_library("libsqlite3.so.0", "read ROS 2 .db3 bags");

}  // namespace

// One forwarding definition per function rmodel calls; `decltype(::name)` takes the
// return type from the library's header, and the redeclaration must match it.
#define RMODEL_FORWARD(library, name, params, args)                 \
  extern "C" auto name params -> decltype(::name args) {              \
    static std::atomic<decltype(&::name)> cache{nullptr};             \
    return rmodel::detail::resolve_lazily(library, cache, #name) args; \
  }

// zstd (MCAP chunks)
RMODEL_FORWARD(zstd_library, ZSTD_compressBound, (size_t n), (n))
RMODEL_FORWARD(zstd_library, ZSTD_createCCtx, (void), ())
RMODEL_FORWARD(zstd_library, ZSTD_freeCCtx, (ZSTD_CCtx * c), (c))
RMODEL_FORWARD(zstd_library, ZSTD_compressCCtx,
               (ZSTD_CCtx * c, void* dst, size_t cap, const void* src, size_t n, int level),
               (c, dst, cap, src, n, level))
RMODEL_FORWARD(zstd_library, ZSTD_createDCtx, (void), ())
RMODEL_FORWARD(zstd_library, ZSTD_freeDCtx, (ZSTD_DCtx * d), (d))
RMODEL_FORWARD(zstd_library, ZSTD_decompressDCtx, (ZSTD_DCtx * d, void* dst, size_t cap, const void* src, size_t n),
               (d, dst, cap, src, n))
RMODEL_FORWARD(zstd_library, ZSTD_DCtx_reset, (ZSTD_DCtx * d, ZSTD_ResetDirective reset), (d, reset))
RMODEL_FORWARD(zstd_library, ZSTD_decompressStream, (ZSTD_DStream * d, ZSTD_outBuffer* out, ZSTD_inBuffer* in),
               (d, out, in))
RMODEL_FORWARD(zstd_library, ZSTD_isError, (size_t code), (code))
RMODEL_FORWARD(zstd_library, ZSTD_getErrorName, (size_t code), (code))

// lz4 frames (MCAP and ROS 1 chunks)
RMODEL_FORWARD(lz4_library, LZ4F_isError, (LZ4F_errorCode_t code), (code))
RMODEL_FORWARD(lz4_library, LZ4F_getErrorName, (LZ4F_errorCode_t code), (code))
RMODEL_FORWARD(lz4_library, LZ4F_createCompressionContext, (LZ4F_cctx * *c, unsigned version), (c, version))
RMODEL_FORWARD(lz4_library, LZ4F_freeCompressionContext, (LZ4F_cctx * c), (c))
RMODEL_FORWARD(lz4_library, LZ4F_compressBound, (size_t n, const LZ4F_preferences_t* p), (n, p))
RMODEL_FORWARD(lz4_library, LZ4F_compressBegin, (LZ4F_cctx * c, void* dst, size_t cap, const LZ4F_preferences_t* p),
               (c, dst, cap, p))
RMODEL_FORWARD(lz4_library, LZ4F_compressUpdate,
               (LZ4F_cctx * c, void* dst, size_t cap, const void* src, size_t n, const LZ4F_compressOptions_t* o),
               (c, dst, cap, src, n, o))
RMODEL_FORWARD(lz4_library, LZ4F_compressEnd,
               (LZ4F_cctx * c, void* dst, size_t cap, const LZ4F_compressOptions_t* o), (c, dst, cap, o))
RMODEL_FORWARD(lz4_library, LZ4F_createDecompressionContext, (LZ4F_dctx * *d, unsigned version), (d, version))
RMODEL_FORWARD(lz4_library, LZ4F_freeDecompressionContext, (LZ4F_dctx * d), (d))
RMODEL_FORWARD(lz4_library, LZ4F_resetDecompressionContext, (LZ4F_dctx * d), (d))
RMODEL_FORWARD(lz4_library, LZ4F_decompress,
               (LZ4F_dctx * d, void* dst, size_t* cap, const void* src, size_t* n, const LZ4F_decompressOptions_t* o),
               (d, dst, cap, src, n, o))

// bzip2 (ROS 1 chunks)
RMODEL_FORWARD(bz2_library, BZ2_bzBuffToBuffDecompress,
               (char* dst, unsigned int* cap, char* src, unsigned int n, int small, int verbosity),
               (dst, cap, src, n, small, verbosity))
RMODEL_FORWARD(bz2_library, BZ2_bzDecompressInit, (bz_stream * z, int verbosity, int small), (z, verbosity, small))
RMODEL_FORWARD(bz2_library, BZ2_bzDecompress, (bz_stream * z), (z))
RMODEL_FORWARD(bz2_library, BZ2_bzDecompressEnd, (bz_stream * z), (z))

// SQLite (ROS 2 .db3 bags)
RMODEL_FORWARD(sqlite_library, sqlite3_open_v2, (const char* file, sqlite3** db, int flags, const char* vfs),
               (file, db, flags, vfs))
RMODEL_FORWARD(sqlite_library, sqlite3_close, (sqlite3 * db), (db))
RMODEL_FORWARD(sqlite_library, sqlite3_errmsg, (sqlite3 * db), (db))
RMODEL_FORWARD(sqlite_library, sqlite3_errcode, (sqlite3 * db), (db))
RMODEL_FORWARD(sqlite_library, sqlite3_prepare_v2,
               (sqlite3 * db, const char* sql, int n, sqlite3_stmt** stmt, const char** tail), (db, sql, n, stmt, tail))
RMODEL_FORWARD(sqlite_library, sqlite3_step, (sqlite3_stmt * s), (s))
RMODEL_FORWARD(sqlite_library, sqlite3_finalize, (sqlite3_stmt * s), (s))
RMODEL_FORWARD(sqlite_library, sqlite3_column_int64, (sqlite3_stmt * s, int column), (s, column))
RMODEL_FORWARD(sqlite_library, sqlite3_column_text, (sqlite3_stmt * s, int column), (s, column))
RMODEL_FORWARD(sqlite_library, sqlite3_column_blob, (sqlite3_stmt * s, int column), (s, column))
RMODEL_FORWARD(sqlite_library, sqlite3_column_bytes, (sqlite3_stmt * s, int column), (s, column))
