import { childIdsOf } from '../query/relations.js';
import { storedPath } from '../query/schema-facts.js';
import type { FieldModel } from '../sdl/model.js';
import { ID_BATCH_SIZE, idBatches } from '../store/id-batches.js';

/**
 * The parents of a stored relation in consecutive groups holding at most `size` child ids each, so that
 * no `$in` read of their children carries more. A parent holding more than `size` ids is split: each of
 * its batches becomes a copy of the parent holding only those ids, in a group of its own. The copies only
 * steer which children are read; paging per parent works on the parents themselves.
 */
export function holdersByChildIds<T extends Record<string, unknown>>(field: FieldModel, holders: readonly T[], size: number = ID_BATCH_SIZE): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let held = 0;
  const close = () => {
    if (group.length > 0) groups.push(group);
    [group, held] = [[], 0];
  };
  for (const holder of holders) {
    const ids = [...new Set(childIdsOf(field, holder))];
    if (ids.length > size) {
      close();
      for (const batch of idBatches(ids, size)) groups.push([{ ...holder, [storedPath(field)]: field.list ? batch : batch[0] }]);
      continue;
    }
    if (held + ids.length > size) close();
    group.push(holder);
    held += ids.length;
  }
  close();
  return groups.length === 0 ? [[]] : groups;
}
