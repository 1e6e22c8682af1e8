import { HttpError } from '../http-io.js';
import type { Route } from '../router.js';
import { UI_PREFIX, type UiFiles } from '../ui-files.js';

/**
 * `GET /ui/<file>`: the scripts and styles of the IDE and the schema page, from memory (ui-files.ts). A name
 * outside the fixed table, `..` and escapes included, answers 404: no request path reaches the file system.
 */
export function uiAssetsRoute(files: UiFiles): Route {
  return {
    paths: [`${UI_PREFIX}<file>`],
    matches: (path) => path.startsWith(UI_PREFIX),
    async handle(req, res, path) {
      const name = path.slice(UI_PREFIX.length);
      const file = name.endsWith('.html') ? undefined : files.get(name);
      if (!file) {
        throw new HttpError(404, 'NOT_FOUND', `no file ${path}: the files under ${UI_PREFIX} are ${files.names().join(', ')}`);
      }
      await files.send(req, res, name, file);
    },
  };
}
