// Package cache keeps a check's work between runs (check --cache DIR), at
// three levels with one keying scheme — a SHA-256 of the run's options
// (internal/run derives it canonically from the options value, so no
// option can be left out) and of the bytes each level depends on:
//
//   - Threads: each thread's results (rules.Reuser), keyed by the options
//     and the thread's input bytes, persisted artifacts and evidence packs;
//   - the scan of each input file (compile/mailbox's ScanCache);
//   - a whole run (internal/run's run cache, runcache.go), when every input
//     and option is unchanged; the newest few runs of each shard are kept.
//
// A corrupt, cut or foreign entry is a miss, never a wrong result; runs may
// share a folder.
package cache
