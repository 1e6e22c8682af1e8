/**
 * Inclusion projection for `find` (`{ title: 1, 'meta.pages': 1 }`), as MongoDB applies it: `_id` always,
 * nested paths keep their enclosing objects, and a path through an array projects every object element.
 * It reads the stored document and builds a new one, never writing into the stored document.
 */
import type { StoredDocument } from '../port.js';
import { cloneJson, isPlainObject, setOwn } from './json-values.js';

/**
 * A function giving each document's projected copy (the caller's to keep: nothing shared with the stored
 * document). Top-level paths, the usual case, are copied field by field without building an intermediate
 * projection; a dotted path goes through `projectDocument`.
 */
export function projectedCopier(paths: readonly string[]): (document: StoredDocument) => StoredDocument {
  if (paths.some((path) => path.includes('.'))) return (document) => cloneJson(projectDocument(document, paths));
  const fields = paths.filter((path) => path !== '_id');
  return (document) => {
    const copy = { _id: document._id } as StoredDocument;
    for (const field of fields) {
      if (Object.prototype.hasOwnProperty.call(document, field)) setOwn(copy, field, cloneJson(document[field]));
    }
    return copy;
  };
}

export function projectDocument(document: StoredDocument, paths: readonly string[]): StoredDocument {
  const projected: Record<string, unknown> = { _id: document._id };
  for (const path of paths) include(document, projected, path.split('.'));
  return projected as StoredDocument;
}

function include(source: Record<string, unknown>, target: Record<string, unknown>, segments: string[]): void {
  const [key, ...rest] = segments;
  if (key === undefined || !Object.prototype.hasOwnProperty.call(source, key)) return;
  const value = source[key];
  if (rest.length === 0) {
    target[key] = value;
    return;
  }
  if (isPlainObject(value)) {
    const nested = isPlainObject(target[key]) ? (target[key] as Record<string, unknown>) : (target[key] = {});
    include(value, nested as Record<string, unknown>, rest);
  } else if (Array.isArray(value)) {
    const elements = value.filter(isPlainObject);
    const existing = target[key];
    const nested = Array.isArray(existing) ? (existing as Record<string, unknown>[]) : elements.map(() => ({}));
    target[key] = nested;
    elements.forEach((element, i) => include(element, nested[i]!, rest));
  }
}
