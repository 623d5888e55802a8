import { basename } from 'node:path';
import { parse, subcommand, UsageError } from './args';
import { CommandFailure } from './failure';
import { readInputFile } from './files';
import { printLines, printText } from './output';
import { CONNECTION_OPTIONS, connect, seg } from './rest-client';
import { USAGE } from './usage';

const SUBCOMMANDS = ['ls', 'upload', 'get', 'rm'];

interface SchemaStatus {
  name: string;
  error: { message?: string; cause?: string } | null;
}

/** `grid schema ls|upload|get|rm`: protobuf schemas, `/rest/v2/schemas` (docs/cli.md). */
export async function runSchema(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { ...CONNECTION_OPTIONS, name: { type: 'string' } });
  if (values.help) {
    process.stdout.write(USAGE.schema + '\n');
    return 0;
  }
  const { sub, arg } = subcommand('schema', positionals, SUBCOMMANDS, (s) => (s === 'ls' ? undefined : s === 'upload' ? 'FILE' : 'NAME'));
  if (sub !== 'upload' && values.name !== undefined) throw new UsageError(`--name belongs to 'schema upload'`);
  const noSchema = `there is no schema named '${arg}' (see \`grid schema ls\`)`;
  switch (sub) {
    case 'ls': {
      const schemas = await connect(values).json<SchemaStatus[]>('GET', '/v2/schemas');
      printLines(schemas.map((s) => (s.error ? `${s.name}\terror: ${s.error.cause ?? s.error.message}` : s.name)));
      return 0;
    }
    case 'upload': {
      const text = readInputFile(arg!);
      const name = (values.name as string | undefined) ?? basename(arg!);
      const status = await connect(values).json<SchemaStatus>('PUT', `/v2/schemas/${seg(name)}`, { headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: text });
      // the server keeps a schema with errors (as the original): say so, and fail the command
      if (status.error) throw new CommandFailure(`schema '${status.name}' was stored but has errors: ${status.error.cause ?? status.error.message}`);
      printText(`schema '${status.name}' uploaded`);
      return 0;
    }
    case 'get':
      printText(await (await connect(values).request('GET', `/v2/schemas/${seg(arg!)}`, { explain: { 404: noSchema } })).text());
      return 0;
    default: // rm
      await connect(values).request('DELETE', `/v2/schemas/${seg(arg!)}`, { explain: { 404: noSchema } });
      printText(`schema '${arg}' removed`);
      return 0;
  }
}
