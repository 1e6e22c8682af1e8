/** Databases and their collections, created implicitly on first write as MongoDB does. */
import { Collection } from './collection';
import { CommandError } from './errors';

export class Catalog {
  private readonly databases = new Map<string, Map<string, Collection>>();

  find(database: string, name: string): Collection | undefined {
    return this.databases.get(database)?.get(name);
  }

  /** The collection, created when missing. */
  obtain(database: string, name: string): Collection {
    checkCollectionName(name);
    const collections = this.collectionsOf(database);
    let collection = collections.get(name);
    if (!collection) {
      collection = new Collection(`${database}.${name}`);
      collections.set(name, collection);
    }
    return collection;
  }

  create(database: string, name: string): void {
    if (this.find(database, name)) throw new CommandError('NamespaceExists', `Collection ${database}.${name} already exists.`);
    this.obtain(database, name);
  }

  drop(database: string, name: string): boolean {
    return this.databases.get(database)?.delete(name) ?? false;
  }

  dropDatabase(database: string): void {
    this.databases.delete(database);
  }

  names(database: string): string[] {
    return [...(this.databases.get(database)?.keys() ?? [])];
  }

  private collectionsOf(database: string): Map<string, Collection> {
    let collections = this.databases.get(database);
    if (!collections) {
      collections = new Map();
      this.databases.set(database, collections);
    }
    return collections;
  }
}

function checkCollectionName(name: string): void {
  if (name === '' || name.includes('$') || name.includes('\0') || name.startsWith('system.')) {
    throw new CommandError('InvalidNamespace', `Invalid collection name: ${name}`);
  }
}
