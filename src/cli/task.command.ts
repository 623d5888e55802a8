import { basename } from 'node:path';
import { parse, subcommand, UsageError } from './args';
import { readInputFile } from './files';
import { printLines, printText } from './output';
import { CONNECTION_OPTIONS, connect, seg } from './rest-client';
import { USAGE } from './usage';

const SUBCOMMANDS = ['ls', 'upload', 'exec'];

interface TaskInfo {
  name: string;
  type?: string;
  parameters?: string[];
}

/** `grid task ls|upload|exec`: server tasks, `/rest/v2/tasks` (docs/tasks.md). */
export async function runTask(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    ...CONNECTION_OPTIONS, name: { type: 'string' }, param: { type: 'string', multiple: true, short: 'P' }, cache: { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(USAGE.task + '\n');
    return 0;
  }
  const { sub, arg } = subcommand('task', positionals, SUBCOMMANDS, (s) => (s === 'ls' ? undefined : s === 'upload' ? 'FILE' : 'NAME'));
  if (sub !== 'upload' && values.name !== undefined) throw new UsageError(`--name belongs to 'task upload'`);
  if (sub !== 'exec' && (values.param !== undefined || values.cache !== undefined)) throw new UsageError(`--param and --cache belong to 'task exec'`);
  switch (sub) {
    case 'ls': {
      const tasks = await connect(values).json<TaskInfo[]>('GET', '/v2/tasks');
      printLines(tasks.map((t) => [t.name, t.type, (t.parameters ?? []).join(',')].filter(Boolean).join('\t')));
      return 0;
    }
    case 'upload': {
      const script = readInputFile(arg!);
      const name = (values.name as string | undefined) ?? basename(arg!);
      await connect(values).request('POST', `/v2/tasks/${seg(name)}`, { headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: script });
      printText(`task '${name}' uploaded`);
      return 0;
    }
    default: { // exec
      const query: Record<string, string> = { action: 'exec' };
      if (values.cache !== undefined) query.cache = values.cache as string;
      for (const p of (values.param as string[] | undefined) ?? []) {
        const eq = p.indexOf('=');
        if (eq <= 0) throw new UsageError(`--param takes NAME=VALUE, not '${p}'`);
        query[`param.${p.slice(0, eq)}`] = p.slice(eq + 1);
      }
      const r = await connect(values).request('POST', `/v2/tasks/${seg(arg!)}`, { query });
      printText(await r.text());
      return 0;
    }
  }
}
