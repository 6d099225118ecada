// The environment the server process starts with for its memory (docs/operations.md, "Memory"), used by `npm start`
// (scripts/start.mjs) and the benchmarks (bench/bench-kit.mjs); the Dockerfile sets the same. An operator's own
// value wins.
//
// MALLOC_ARENA_MAX=2: glibc gives each thread that allocates its own malloc arena (up to 8 per core), and the
// threads of libuv's pool (argon2's 19 MiB per password hash, sharp's decoding and resizing) each kept one of 20–40 MB
// resident after the work was done: about 350 MB of the process's growth under the soak's load (bench/README.md,
// "Memory soak"). Two arenas are shared by every thread, and freed memory is reused instead of stranded.
export const SERVER_MEMORY_ENV = { MALLOC_ARENA_MAX: '2' };

/** `env` with the memory settings added where it has none of its own. */
export const withServerMemoryEnv = (env) => ({ ...SERVER_MEMORY_ENV, ...env });
