import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The bound the event-loop tests hold the server to. Generous on purpose: the machines running the
 * suite are shared and slow; a parser that is quadratic, or a stall of seconds, still exceeds it.
 */
export const STALL_BOUND_MS = 1000;

export interface ProbeReport {
  /** Slowest answer of the health probe, in ms. */
  worstMs: number;
  probes: number;
  /** Probes that got no 200 (a refused connection, a 5xx). */
  failures: number;
}

const HEALTH = '/rest/v2/container/health/status';

/**
 * Asks the server's anonymous health probe, one request after the other over one kept-alive
 * connection, and records the slowest answer: a stalled event loop shows as a slow probe, whether
 * the server runs in this process or another. Stop it to get the report.
 */
export function startHealthProbe(baseUrl: string, pauseMs = 5): { stop(): Promise<ProbeReport> } {
  const url = new URL(HEALTH, baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const report: ProbeReport = { worstMs: 0, probes: 0, failures: 0 };
  let running = true;
  const once = () => new Promise<void>((resolve) => {
    const started = performance.now();
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => {
        report.worstMs = Math.max(report.worstMs, performance.now() - started);
        report.probes++;
        if (res.statusCode !== 200) report.failures++;
        resolve();
      });
    });
    req.once('error', () => {
      report.worstMs = Math.max(report.worstMs, performance.now() - started);
      report.failures++;
      resolve();
    });
    req.end();
  });
  const loop = (async () => {
    while (running) {
      await once();
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return report;
    },
  };
}

/** Runs `work` while the health probe runs; the probe's report comes with the work's result. */
export async function whileProbing<T>(baseUrl: string, work: () => Promise<T>): Promise<{ result: T; probe: ProbeReport }> {
  const probe = startHealthProbe(baseUrl);
  try {
    const result = await work();
    // one more answer after the work, so a stall at its very end is seen too
    await new Promise((r) => setTimeout(r, 20));
    return { result, probe: await probe.stop() };
  } catch (err) {
    await probe.stop();
    throw err;
  }
}

/**
 * For a server in this process: the longest event-loop delay (ms) while `work` runs, measured by
 * Node itself (monitorEventLoopDelay) rather than over HTTP.
 */
export async function longestLoopDelay<T>(work: () => Promise<T>): Promise<{ result: T; maxMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  // its first timer tick records nothing: a stall before that tick would go unseen
  await new Promise((r) => setTimeout(r, 25));
  try {
    const result = await work();
    await new Promise((r) => setTimeout(r, 20));
    return { result, maxMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
