import type { GraphQLFieldResolver } from 'graphql';
import { names } from '../../api/names.js';
import { passwordKeyField } from '../../api/password.js';
import { storedPath } from '../../query/schema-facts.js';
import { concreteTypesOf } from '../../sdl/facts.js';
import type { SchemaModel, TypeModel } from '../../sdl/model.js';
import { authConstraint, restrictPlan } from '../authorize.js';
import type { RequestContext } from '../context.js';
import { checkIdArgument } from '../id-argument.js';
import { storeOf } from '../model-store.js';
import { runPlan, tag, type GraphObject } from '../read.js';
import { passwordMatches, reservePasswordOperations } from './password-work.js';

type Resolver = GraphQLFieldResolver<unknown, RequestContext, Record<string, unknown>>;

/**
 * `checkTPassword(<key>, <secret>: String!): T`: the object when the password is its own, else null, as
 * in Dgraph. The object must be one the caller may query (`@auth` query rule) and, when the type has one,
 * one its `password` rule allows: an object outside them answers null without any bcrypt work. The
 * answer never holds the stored hash.
 */
export function checkPasswordResolvers(model: SchemaModel, type: TypeModel): Record<string, Resolver> {
  const key = passwordKeyField(type);
  const secret = type.secret;
  if (!key || !secret) return {};
  const T = type.name;
  return {
    [names.checkPassword(T)]: async (_root, args, context, info) => {
      const password = args[secret.name] as string;
      const keyValue = args[key.name];
      for (const concrete of concreteTypesOf(model, T)) {
        const concreteSecret = concrete.secret;
        if (!concreteSecret) continue;
        const match = key.isIdField ? { _id: String(keyValue) } : { [storedPath(key)]: keyValue };
        const visible = restrictPlan({ lookups: [], match }, authConstraint(context, model, concrete.name, 'query'));
        const plan = restrictPlan(visible, authConstraint(context, model, concrete.name, 'password'));
        const [document] = await runPlan(storeOf(context, model).collection(concrete.name), plan, { _id: 1 }, 0, 1);
        if (!document) continue;
        const { [concreteSecret.storedName]: hash, ...withoutHash } = document;
        if (typeof hash !== 'string') return null;
        reservePasswordOperations(context, 1, names.checkPassword(T));
        if (!await passwordMatches(context, password, hash)) return null;
        const [object] = tag([withoutHash as GraphObject], concrete.name);
        return object;
      }
      // No object has that key: an ID that cannot be one the service made is refused, as Dgraph does.
      if (key.isIdField) checkIdArgument(model, type, keyValue, info);
      return null;
    },
  };
}
