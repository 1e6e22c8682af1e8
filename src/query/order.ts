import type { SchemaModel, TypeModel } from '../sdl/model.js';
import type { SortSpec } from '../store/port.js';
import { QueryArgumentError } from './errors.js';
import { isOrderable } from '../sdl/facts.js';
import { storedPath, typeOf } from './schema-facts.js';

export { isOrderable };

function orderField(model: SchemaModel, type: TypeModel, name: unknown, direction: string): string {
  const field = typeof name === 'string' ? type.fieldsByName.get(name) : undefined;
  if (!field || !isOrderable(model, type, field)) {
    throw new QueryArgumentError(`${type.name}Order.${direction}: ${JSON.stringify(name)} is not an orderable field of ${type.name} (orderable: single String, Int, Int64, Float or DateTime fields)`);
  }
  return storedPath(field);
}

/**
 * `{ asc | desc: field, then: { ... } }` → a MongoDB sort, always ending with `_id: 1` so that equal keys
 * keep one order and pages never overlap. A field named again further down the `then` chain keeps its
 * first place. No order (or `{}`) sorts by `_id`, which is creation order.
 */
export function compileOrder(model: SchemaModel, typeName: string, order: Record<string, unknown> | null | undefined): SortSpec {
  const type = typeOf(model, typeName);
  const sort: SortSpec = {};
  let level: unknown = order;
  while (level !== null && level !== undefined) {
    if (typeof level !== 'object' || Array.isArray(level)) {
      throw new QueryArgumentError(`${type.name}Order: expected an object like { asc: field }, got ${JSON.stringify(level)}`);
    }
    const { asc, desc, then, ...unknown } = level as Record<string, unknown>;
    const extra = Object.keys(unknown);
    if (extra.length > 0) throw new QueryArgumentError(`${type.name}Order has no key "${extra[0]}" (keys: asc, desc, then)`);
    const hasAsc = asc !== null && asc !== undefined;
    const hasDesc = desc !== null && desc !== undefined;
    if (hasAsc && hasDesc) throw new QueryArgumentError(`${type.name}Order: give either asc or desc in one order object, not both`);
    if (hasAsc || hasDesc) {
      const name = orderField(model, type, hasAsc ? asc : desc, hasAsc ? 'asc' : 'desc');
      if (!(name in sort)) sort[name] = hasAsc ? 1 : -1;
    }
    level = then;
  }
  // An extended type's key may be its ID (stored as `_id`): ordered by it, `_id` is already the tie-break.
  if (!('_id' in sort)) sort._id = 1;
  return sort;
}
