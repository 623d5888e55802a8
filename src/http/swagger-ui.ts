import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { StaticFileNotFoundError } from '../errors';
import { sendStatus } from './respond';
import { answerStaticFile } from './static-files';
import type { GridContext } from './route-spec';

/** `/swagger-ui` redirects to `/swagger-ui/` so the page's relative links resolve (relative too: a proxy's prefix stays). */
const TO_DIRECTORY = 'swagger-ui/';
const INITIALIZER = 'swagger-initializer.js';

/**
 * The files of swagger-ui-dist a browser asks for, and their types. Only these names are served,
 * so no request can name another file: the name is looked up, never joined as a path.
 */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui.css.map': 'application/json',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-bundle.js.map': 'application/json',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js.map': 'application/json',
  'oauth2-redirect.html': 'text/html; charset=utf-8',
  'oauth2-redirect.js': 'text/javascript; charset=utf-8',
  'favicon-16x16.png': 'image/png',
  'favicon-32x32.png': 'image/png',
};

/**
 * Replaces the package's petstore initializer: the document this server describes itself with,
 * by a relative URL so the page also works under a reverse proxy's path prefix; no call to the
 * public validator (the page must not reach out to other hosts).
 */
const INITIALIZER_SCRIPT = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '../rest/v2/openapi',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tagsSorter: 'alpha',
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  });
};
`;

let packageDir: string | undefined;

function swaggerUiDir(): string {
  packageDir ??= dirname(require.resolve('swagger-ui-dist/package.json'));
  return packageDir;
}

/** `GET /swagger-ui`, `/swagger-ui/` and `/swagger-ui/{file}`. */
export async function serveSwaggerUi(ctx: GridContext, file: string | undefined, now: number): Promise<void> {
  if (file === undefined && !ctx.path.endsWith('/')) {
    ctx.set('Location', TO_DIRECTORY);
    return sendStatus(ctx, 301);
  }
  const name = file ?? 'index.html';
  if (name === INITIALIZER) {
    ctx.set('Cache-Control', 'no-cache');
    ctx.status = 200;
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = INITIALIZER_SCRIPT;
    return;
  }
  const type = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (type === undefined) throw new StaticFileNotFoundError();
  await sendFile(ctx, join(swaggerUiDir(), name), type, now);
}

async function sendFile(ctx: GridContext, path: string, type: string, now: number): Promise<void> {
  let file;
  try {
    file = await open(path, 'r');
  } catch {
    throw new StaticFileNotFoundError();
  }
  const stats = await file.stat();
  if (!await answerStaticFile(ctx, { file, stats }, type, now)) return;
  ctx.body = file.createReadStream(); // closes the file when done or destroyed
  ctx.length = stats.size;
}
