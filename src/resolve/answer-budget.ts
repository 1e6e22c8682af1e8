/**
 * Charges the request's budget for the objects its answer holds. Every field that resolves to objects
 * (object or interface type, or a list of them) first checks that the budget lasts, so no new work
 * starts after the deadline or the object cap, then charges what it resolved to: a list one per item, a
 * single object one. Counting what fields hand to GraphQL, rather than what the store returns, also
 * counts an object that appears under many parents once per appearance, as the answer does.
 */
import { getNamedType, isCompositeType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { RequestBudget } from '../limits/budget.js';

type Resolver = GraphQLFieldResolver<unknown, unknown>;

export function chargeAnswerObjects(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve && isCompositeType(getNamedType(field.type))) field.resolve = charged(field.resolve);
    }
  }
}

function charged(resolve: Resolver): Resolver {
  return (source, args, context, info) => {
    const budget = budgetOf(context);
    if (!budget) return resolve(source, args, context, info);
    budget.check();
    const result = resolve(source, args, context, info);
    if (!isPromiseLike(result)) return holding(budget, result);
    return result.then((value) => holding(budget, value));
  };
}

function holding(budget: RequestBudget, value: unknown): unknown {
  budget.holdObjects(objectsIn(value));
  return value;
}

/** A context from resolve/'s createRequestContext has one; a server with its own context factory may not. */
function budgetOf(context: unknown): RequestBudget | undefined {
  const budget = (context as { budget?: unknown } | null)?.budget;
  return budget instanceof RequestBudget ? budget : undefined;
}

function objectsIn(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (!Array.isArray(value)) return 1;
  let count = 0;
  for (const item of value) count += objectsIn(item);
  return count;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
