import { addObjects, updateObjects } from '../../../src/resolve/mutations/run.js';
import { SYSTEM_COLLECTIONS } from '../../../src/store/port.js';
import { modelOf, refusalOf as failure, useMutationStore } from './harness';

/** Who names a new object's id (the caller for `ID @id` and extended types) and `@id(interface: true)` across types. */
const model = modelOf(`
type Doc {
  key: ID! @id
  title: String
  code: String @id
}

extend type Reader @key(fields: "handle") {
  handle: String! @id @external
  email: String @id
  stars: Int
  doc: Doc
}

extend type Book @key(fields: "id") {
  id: ID! @external
  shelf: Int
}

interface Member {
  refID: String! @id(interface: true)
  name: String
}

type Staff implements Member {
  desk: Int
}

type Guest implements Member {
  host: Staff
}

type Club {
  name: String! @id
  members: [Member]
  guests: [Guest]
}
`);

describe('ids the caller gives and @id(interface: true)', () => {
  const db = useMutationStore(model);

  const add = (typeName: string, inputs: Record<string, unknown>[], upsert = false) => addObjects(model, db.store, typeName, inputs, upsert);


  describe('ids the caller gives', () => {
    test('an ID @id names the new object\'s _id; an upsert finds it by that id', async () => {
      expect(await add('Doc', [{ key: 'd1', title: 'One' }])).toEqual({ ids: new Map([['Doc', ['d1']]]), numUids: 1 });
      expect(await add('Doc', [{ key: 'd1', title: 'Uno' }, { key: 'd2' }], true)).toEqual({ ids: new Map([['Doc', ['d1', 'd2']]]), numUids: 1 });
      expect(await db.documents('Doc')).toEqual([{ _id: 'd1', title: 'Uno' }, { _id: 'd2' }]);
    });

    test('an extended type\'s key (an @id field) is the _id; the owner\'s key is found again by upsert and by Ref', async () => {
      await add('Reader', [{ handle: 'amy', stars: 1 }]);
      await add('Reader', [{ handle: 'amy', stars: 5, doc: { key: 'd1' } }], true);
      await add('Book', [{ id: 'b1', shelf: 2 }]);
      expect(await db.documents('Reader')).toEqual([{ _id: 'amy', handle: 'amy', stars: 5, doc: 'd1' }]);
      expect(await db.documents('Book')).toEqual([{ _id: 'b1', shelf: 2 }]);
    });

    test.each([
      ['an ID @id already taken', 'Doc', [{ key: 'd0' }], { message: 'couldn\'t rewrite mutation addDoc because failed to rewrite mutation payload because id d0 already exists for field key inside type Doc', code: 'DUPLICATE_ID', type: 'Doc', field: 'key', value: 'd0' }],
      ['an ID @id given twice', 'Doc', [{ key: 'd9' }, { key: 'd9' }], { message: 'couldn\'t rewrite mutation addDoc because failed to rewrite mutation payload because id d9 already exists for field key inside type Doc', code: 'DUPLICATE_ID', type: 'Doc', field: 'key', value: 'd9' }],
      ['an extended key already taken', 'Reader', [{ handle: 'zed' }], { message: 'couldn\'t rewrite mutation addReader because failed to rewrite mutation payload because id zed already exists for field handle inside type Reader', code: 'DUPLICATE_ID', type: 'Reader', field: 'handle', value: 'zed' }],
      ['an extended ID key already taken', 'Book', [{ id: 'b0' }], { message: 'couldn\'t rewrite mutation addBook because failed to rewrite mutation payload because id b0 already exists for field id inside type Book', code: 'DUPLICATE_ID', type: 'Book', field: 'id', value: 'b0' }],
      ['an ID @id left out', 'Doc', [{ title: 'x' }], { message: 'couldn\'t rewrite mutation addDoc because failed to rewrite mutation payload because Doc.key is declared ID @id: give the new object\'s key', code: 'BAD_USER_INPUT' }],
      ['an ID @id given as null', 'Doc', [{ key: null }], { message: 'couldn\'t rewrite mutation addDoc because failed to rewrite mutation payload because Doc.key is declared ID @id: give the new object\'s key', code: 'BAD_USER_INPUT' }],
      ['an ID @id given empty', 'Doc', [{ key: '' }], { message: 'couldn\'t rewrite mutation addDoc because failed to rewrite mutation payload because Doc.key is declared ID @id: give the new object\'s key', code: 'BAD_USER_INPUT' }],
      ['an extended key left out', 'Reader', [{ stars: 1 }], { message: 'couldn\'t rewrite mutation addReader because failed to rewrite mutation payload because Reader is owned by another service: give its key handle (the owner\'s id)', code: 'BAD_USER_INPUT' }],
      ['a Ref by an ID @id that is new, without the id', 'Reader', [{ handle: 'new', doc: { title: 'x' } }], { message: 'couldn\'t rewrite mutation addReader because failed to rewrite mutation payload because Doc.key is declared ID @id: give the new object\'s key', code: 'BAD_USER_INPUT' }],
    ])('refused: %s', async (_case, typeName, inputs, expected) => {
      await add('Doc', [{ key: 'd0' }]);
      await add('Reader', [{ handle: 'zed' }]);
      await add('Book', [{ id: 'b0' }]);
      expect(await failure(add(typeName, inputs))).toEqual(expected);
      expect(await db.documents('Doc')).toEqual([{ _id: 'd0' }]);
    });

    test('an ID @id not taken is then looked up by the other @id values: an upsert finds the object by them', async () => {
      await add('Doc', [{ key: 'd0', code: 'c0' }]);
      expect(await add('Doc', [{ key: 'd5', code: 'c0', title: 'T' }], true)).toEqual({ ids: new Map([['Doc', ['d0']]]), numUids: 0 });
      expect(await db.documents('Doc')).toEqual([{ _id: 'd0', code: 'c0', title: 'T' }]);
    });

    test('an extended type is found by its key only: another @id value it takes is a duplicate, even in an upsert', async () => {
      await add('Reader', [{ handle: 'zed', email: 'z@x' }]);
      expect(await failure(add('Reader', [{ handle: 'new', email: 'z@x' }], true))).toEqual({
        message: 'couldn\'t rewrite mutation addReader because failed to rewrite mutation payload because id z@x already exists for field email inside type Reader', code: 'DUPLICATE_ID', type: 'Reader', field: 'email', value: 'z@x',
      });
      expect(await db.documents('Reader')).toEqual([{ _id: 'zed', handle: 'zed', email: 'z@x' }]);
    });

    test('an upsert that changes an @id value makes the add ask the store again for that value', async () => {
      await add('Doc', [{ key: 'd0', code: 'c0' }]);
      expect(await add('Doc', [{ key: 'd0', code: 'c1' }, { key: 'd7', code: 'c0' }], true)).toEqual({ ids: new Map([['Doc', ['d0', 'd7']]]), numUids: 1 });
      expect(await db.documents('Doc')).toEqual([{ _id: 'd0', code: 'c1' }, { _id: 'd7', code: 'c0' }]);
    });

    test('an update may not change an extended type\'s key', async () => {
      await add('Reader', [{ handle: 'amy', stars: 1 }]);
      expect(await failure(updateObjects(model, db.store, 'Reader', { filter: { handle: { eq: 'amy' } }, set: { handle: 'ann', stars: 2 } }))).toEqual({
        message: 'couldn\'t rewrite mutation updateReader because failed to rewrite mutation payload because UpdateReaderInput.set.handle: handle is the key of Reader, owned by another service; it cannot change from "amy" to "ann"', code: 'BAD_USER_INPUT',
      });
      expect(await db.documents('Reader')).toEqual([{ _id: 'amy', handle: 'amy', stars: 1 }]);
    });

    test('a Ref by an ID @id that does not exist yet creates the object under that id', async () => {
      await add('Reader', [{ handle: 'amy', doc: { key: 'fresh', title: 'New' } }]);
      expect(await db.documents('Doc')).toEqual([{ _id: 'fresh', title: 'New' }]);
    });
  });

  describe('@id(interface: true): one value across the implementing types', () => {
    const across = (mutation: string, value: string) => ({
      message: `couldn't rewrite mutation ${mutation} because failed to rewrite mutation payload because id ${value} already exists for field refID in some other implementing type of interface Member`,
      code: 'DUPLICATE_ID', interface: 'Member', field: 'refID', value,
    });

    beforeEach(async () => {
      await add('Staff', [{ refID: 's1', name: 'Sam' }]);
    });

    test.each([
      ['an add of another type', 'Guest', [{ refID: 's1' }], across('addGuest', 's1')],
      ['two inputs of two types in one add', 'Club', [{ name: 'c', members: [] , guests: [{ refID: 'x1' }] }, { name: 'd', guests: [{ refID: 'x2', host: { refID: 'x1' } }] }], across('addClub', 'x1')],
      ['an add of the same type (its own unique index)', 'Staff', [{ refID: 's1' }], { message: 'couldn\'t rewrite mutation addStaff because failed to rewrite mutation payload because id s1 already exists for field refID inside type Staff', code: 'DUPLICATE_ID', type: 'Staff', field: 'refID', value: 's1' }],
    ])('refused: %s', async (_case, typeName, inputs, expected) => {
      expect(await failure(add(typeName, inputs))).toEqual(expected);
      expect(await db.contents('Guest')).toEqual([]);
    });

    test('an update that gives a value another type holds is refused', async () => {
      await add('Guest', [{ refID: 'g1' }]);
      expect(await failure(updateObjects(model, db.store, 'Guest', { filter: { refID: { eq: 'g1' } }, set: { refID: 's1' } }))).toEqual(across('updateGuest', 's1'));
      expect(await db.contents('Guest')).toEqual([{ refID: 'g1' }]);
    });

    test('values that no other type holds are taken; their claims leave nothing behind', async () => {
      const outcome = await add('Guest', [{ refID: 'g1', host: { refID: 's1' } }, { refID: 'g2', host: { refID: 's2', desk: 4 } }]);
      expect(outcome.numUids).toBe(3);
      await updateObjects(model, db.store, 'Staff', { filter: { refID: { eq: 's1' } }, set: { refID: 's1', desk: 1 } });
      expect(await db.contents('Staff', 'refID')).toEqual([{ refID: 's1', name: 'Sam', desk: 1 }, { refID: 's2', desk: 4 }]);
      expect(await db.store.collection(SYSTEM_COLLECTIONS.interfaceIdClaims).find({})).toEqual([]);
    });

    test('a value freed by one type in an update may be taken by another type later', async () => {
      await updateObjects(model, db.store, 'Staff', { filter: { refID: { eq: 's1' } }, set: { refID: 's9' } });
      await add('Guest', [{ refID: 's1' }]);
      expect(await db.contents('Guest')).toEqual([{ refID: 's1' }]);
    });
  });
});
