import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { arch, cpus, hostname, platform, release, totalmem, type as osType } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { redactedArgv } from '../../model/redacted-argv';

/**
 * What the process knows about itself, under the field names of the original's JVM reports
 * (docs/reference/management-plane.md#server-runtime): runtime properties, memory pools and garbage collection, a thread dump.
 */
export class RuntimeInfo {
  private readonly gc = new Map<string, { count: number; ms: number }>();
  private readonly loopDelay: IntervalHistogram;
  private readonly observer: PerformanceObserver;

  constructor() {
    this.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = gcKind((e as unknown as { detail?: { kind?: number } }).detail?.kind);
        const g = this.gc.get(kind) ?? { count: 0, ms: 0 };
        g.count++;
        g.ms += e.duration;
        this.gc.set(kind, g);
      }
    });
    this.observer.observe({ entryTypes: ['gc'] });
    this.loopDelay = monitorEventLoopDelay({ resolution: 20 });
    this.loopDelay.enable();
  }

  close(): void {
    this.observer.disconnect();
    this.loopDelay.disable();
  }

  /** Runtime properties, the counterpart of the JVM system properties the original lists. */
  properties(): Record<string, string> {
    return {
      'node.version': process.version,
      'node.versions.v8': process.versions.v8,
      'node.versions.uv': process.versions.uv,
      'node.versions.sqlite': process.versions.sqlite ?? '',
      'os.name': javaOsName(),
      'os.arch': javaOsArch(),
      'os.version': release(),
      'host.name': hostname(),
      'user.dir': process.cwd(),
      'process.pid': String(process.pid),
      'process.argv': redactedArgv(process.argv).join(' '),
      'process.exec.path': process.execPath,
      'available.processors': String(cpus().length),
      'total.memory': String(totalmem()),
      'uv.threadpool.size': process.env.UV_THREADPOOL_SIZE ?? '4',
    };
  }

  memory(): Record<string, unknown> {
    const heap = getHeapStatistics();
    const usage = process.memoryUsage();
    const pools = getHeapSpaceStatistics().map((s) => ({
      name: s.space_name,
      type: 'HEAP',
      usage: { init: 0, used: s.space_used_size, committed: s.space_size, max: s.space_size + s.space_available_size },
      peak_usage: { init: 0, used: s.space_used_size, committed: s.physical_space_size, max: s.space_size + s.space_available_size },
    }));
    return {
      memory_pools: pools,
      gc: [...this.gc.entries()].map(([name, g]) => ({
        name, valid: true, collection_count: g.count, collection_time: Math.round(g.ms), memory_pool_names: pools.map((p) => p.name),
      })),
      buffer_pools: [{ name: 'external', memory_used: usage.external, total_capacity: usage.external, count: -1 },
        { name: 'array_buffers', memory_used: usage.arrayBuffers, total_capacity: usage.arrayBuffers, count: -1 }],
      heap: { init: 0, used: heap.used_heap_size, committed: heap.total_heap_size, max: heap.heap_size_limit },
      non_heap: { init: 0, used: usage.rss - heap.total_heap_size, committed: usage.rss - heap.total_heap_size, max: -1 },
    };
  }

  /** A thread dump for an event-loop server: the loop, its delay, the thread pool and what keeps the loop busy. */
  threadDump(): string {
    const resources = process.getActiveResourcesInfo();
    const counts = new Map<string, number>();
    for (const r of resources) counts.set(r, (counts.get(r) ?? 0) + 1);
    const ms = (ns: number) => (ns / 1e6).toFixed(3);
    const lines = [
      `"main" event loop, pid ${process.pid}, uptime ${process.uptime().toFixed(1)} s`,
      `   event loop delay: mean ${ms(this.loopDelay.mean)} ms, p50 ${ms(this.loopDelay.percentile(50))} ms, ` +
        `p99 ${ms(this.loopDelay.percentile(99))} ms, max ${ms(this.loopDelay.max)} ms`,
      `   cpu: user ${(process.cpuUsage().user / 1000).toFixed(0)} ms, system ${(process.cpuUsage().system / 1000).toFixed(0)} ms`,
      `"libuv threadpool" size ${process.env.UV_THREADPOOL_SIZE ?? '4'} (file system, crypto: scrypt, compression)`,
      `"V8 platform workers" ${Math.max(cpus().length - 1, 1)} (garbage collection, compilation)`,
      '',
      `active resources (${resources.length}):`,
      ...[...counts.entries()].sort().map(([type, n]) => `   ${type}: ${n}`),
      '',
      'main thread stack:',
      ...(new Error().stack ?? '').split('\n').slice(1).map((l) => `   ${l.trim()}`),
    ];
    return lines.join('\n') + '\n';
  }
}

function gcKind(kind: number | undefined): string {
  switch (kind) {
    case 1: return 'Scavenge';
    case 2: return 'MarkSweepCompact';
    case 4: return 'IncrementalMarking';
    case 8: return 'ProcessWeakCallbacks';
    default: return 'Other';
  }
}

/** `os.name` as the JVM gives it: the system's name (`Linux`, `FreeBSD`), `Mac OS X`, `Windows`. */
function javaOsName(): string {
  if (platform() === 'darwin') return 'Mac OS X';
  if (platform() === 'win32') return 'Windows';
  return osType();
}

/** `os.arch` as the JVM gives it (`amd64`, `x86_64` on macOS, `aarch64`, `x86`); Node's name otherwise. */
function javaOsArch(): string {
  const names: Record<string, string> = { x64: platform() === 'darwin' ? 'x86_64' : 'amd64', arm64: 'aarch64', ia32: 'x86' };
  return names[arch()] ?? arch();
}
