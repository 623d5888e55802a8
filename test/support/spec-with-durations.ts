import Mocha from 'mocha';
import { relative } from 'node:path';

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

/** Files listed after a run, slowest first. */
const SHOWN = 15;

/**
 * Mocha's spec reporter, then the slowest test files of the run with their wall time (hooks
 * included), so a CI log says where the minutes go. Used by `npm test` (`--reporter`).
 */
class SpecWithDurations extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const started = new Map<Mocha.Suite, number>();
    const byFile = new Map<string, number>();
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.parent?.root && suite.file) started.set(suite, performance.now());
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      const start = started.get(suite);
      if (start === undefined || !suite.file) return;
      byFile.set(suite.file, (byFile.get(suite.file) ?? 0) + performance.now() - start);
    });
    runner.once(EVENT_RUN_END, () => {
      const slowest = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
      const total = [...byFile.values()].reduce((a, b) => a + b, 0);
      console.log(`\n  slowest test files (of ${byFile.size}, ${(total / 1000).toFixed(0)} s in all):`);
      for (const [file, ms] of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${relative(process.cwd(), file)}`);
    });
  }
}

export = SpecWithDurations;
