import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CollectionDrop } from '../../schema-changes/collection-drop.js';
import { allowMethods, HttpError, sendJson } from '../http-io.js';

export interface CollectionsAdminDeps {
  /** Drops the collection of a type the active schema no longer has; throws an HttpError when it may not. */
  dropTypeData(typeName: string): Promise<CollectionDrop>;
}

const COLLECTION_PATH = /^\/admin\/collections\/([^/]+)$/;

export function isCollectionsAdminPath(path: string): boolean {
  return COLLECTION_PATH.test(path);
}

/** `DELETE /admin/collections/<Type>` (the caller is already authorized): never implicit, never a type still served. */
export async function handleCollectionsAdmin(req: IncomingMessage, res: ServerResponse, path: string, deps: CollectionsAdminDeps): Promise<void> {
  allowMethods(req.method ?? 'GET', ['DELETE']);
  const [, encoded] = COLLECTION_PATH.exec(path)!;
  let typeName: string;
  try {
    typeName = decodeURIComponent(encoded!);
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', `the collection name in ${path} is not valid URL encoding`);
  }
  const drop = await deps.dropTypeData(typeName);
  const message = drop.collectionDropped
    ? `dropped the collection of type ${typeName} with its stored objects and indexes`
    : `type ${typeName} has no collection: nothing to drop`;
  sendJson(res, 200, { data: { message, ...drop } });
}
