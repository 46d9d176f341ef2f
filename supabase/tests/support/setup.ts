// Run in every test process before its file (vitest.config.ts setupFiles).
//
// A test process whose runner is gone ends at once. Each file runs in a process vitest forks,
// tied to it by an IPC channel only: vitest's own process killed alone (a SIGTERM or SIGKILL to
// its pid, the out-of-memory killer; on SIGTERM it exits at once, its pool not closed) left its
// forks running, each going on through its file against a stack that had stopped (one wait of
// 60 s after another, a core busy for minutes) and keeping the servers that file started itself,
// which their watchdogs stop only once this process ends (supabase/local/process.ts). The
// channel closes when the runner dies; vitest replaces process.exit in a test process, so the
// process signals itself.
const once = Symbol.for('reaction-blocks.tests.exit-with-runner');
const marks = globalThis as unknown as Record<symbol, boolean>;
if (process.send && !marks[once]) {
  marks[once] = true;
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}
