/** Collections and indexes: `create`, `drop`, `dropDatabase`, `listCollections`, `createIndexes`, `listIndexes`, `dropIndexes`. */
import { readDocuments } from '../documents';
import { CommandError } from '../errors';
import { indexDefinitionFrom } from '../indexes';
import { isDocument, type Document } from '../values';
import { collectionName, existing, namespaceOf, optionalCount, optionalDocument, refuseOptions, type CommandContext, type CommandHandler } from './context';

function create(context: CommandContext): Document {
  refuseOptions(context.command, ['capped', 'validator', 'viewOn', 'timeseries', 'clusteredIndex', 'collation', 'changeStreamPreAndPostImages'], 'create');
  context.catalog.create(context.database, collectionName(context));
  return { ok: 1 };
}

/** Dropping a collection that does not exist succeeds, as it does since MongoDB 7.0. */
function drop(context: CommandContext): Document {
  const name = collectionName(context);
  const collection = existing(context, name);
  context.catalog.drop(context.database, name);
  return collection ? { nIndexesWas: collection.listIndexes().length, ns: namespaceOf(context, name), ok: 1 } : { ok: 1 };
}

function dropDatabase(context: CommandContext): Document {
  context.catalog.dropDatabase(context.database);
  return { ok: 1 };
}

function listCollections(context: CommandContext): Document {
  const { command } = context;
  const nameOnly = command.nameOnly === true;
  const entries = context.catalog.names(context.database).map((name) => {
    const collection = existing(context, name)!;
    return nameOnly
      ? { name, type: 'collection' }
      : { name, type: 'collection', options: {}, info: { readOnly: false, uuid: collection.uuid }, idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } };
  });
  const matching = readDocuments(entries, optionalDocument(command, 'filter'), {});
  const batchSize = optionalCount(optionalDocument(command, 'cursor') ?? {}, 'batchSize');
  return context.cursors.firstBatch(`${context.database}.$cmd.listCollections`, matching, batchSize);
}

/** All indexes of one command are built, or none: a failing one removes those built before it. */
function createIndexes(context: CommandContext): Document {
  const name = collectionName(context);
  const specs = context.command.indexes;
  if (!Array.isArray(specs) || specs.length === 0) throw new CommandError('BadValue', 'Must specify at least one index to create');
  const definitions = specs.map(indexDefinitionFrom);
  const createdCollectionAutomatically = !existing(context, name);
  const collection = context.catalog.obtain(context.database, name);
  const numIndexesBefore = collection.listIndexes().length;
  const built: string[] = [];
  try {
    for (const definition of definitions) {
      if (collection.createIndex(definition)) built.push(definition.name);
    }
  } catch (error) {
    for (const indexName of built) collection.dropIndex(indexName);
    throw error;
  }
  return {
    numIndexesBefore,
    numIndexesAfter: collection.listIndexes().length,
    ...(built.length === 0 ? { note: 'all indexes already exist' } : { createdCollectionAutomatically }),
    ok: 1,
  };
}

function listIndexes(context: CommandContext): Document {
  const name = collectionName(context);
  const collection = existing(context, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${namespaceOf(context, name)}`);
  const batchSize = optionalCount(optionalDocument(context.command, 'cursor') ?? {}, 'batchSize');
  return context.cursors.firstBatch(namespaceOf(context, name), collection.listIndexes(), batchSize);
}

/** `index` is a name, `'*'` (all but `_id_`), a key pattern, or a list of names. */
function dropIndexes(context: CommandContext): Document {
  const name = collectionName(context);
  const collection = existing(context, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns not found ${namespaceOf(context, name)}`);
  const nIndexesWas = collection.listIndexes().length;
  const target = context.command.index;
  if (target === '*') {
    collection.dropAllIndexes();
  } else if (typeof target === 'string') {
    collection.dropIndex(target);
  } else if (Array.isArray(target) && target.every((item) => typeof item === 'string')) {
    for (const indexName of target) {
      if (!collection.indexNamed(indexName)) throw new CommandError('IndexNotFound', `index not found with name [${indexName}]`);
    }
    for (const indexName of target) collection.dropIndex(indexName);
  } else if (isDocument(target)) {
    const index = collection.indexWithKey(target);
    if (!index) throw new CommandError('IndexNotFound', `can't find index with key: ${JSON.stringify(target)}`);
    collection.dropIndex(index.name);
  } else {
    throw new CommandError('TypeMismatch', "BSON field 'dropIndexes.index' must be a string, an array of strings or an object");
  }
  return { nIndexesWas, ok: 1 };
}

export const catalogCommands: Record<string, CommandHandler> = {
  create,
  drop,
  dropDatabase,
  listCollections,
  createIndexes,
  listIndexes,
  dropIndexes,
};
