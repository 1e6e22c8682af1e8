// Lambda resolvers of the compatibility suite's products subgraph. Stored objects are read back with
// graphql(); what the suite's data set fixes without storing (which study a product's research is) is here.
const CREATOR_EMAIL = 'support@apollographql.com';
const RESEARCH_CASE_BY_PRODUCT = { 'apollo-federation': '1234', 'apollo-studio': '1235' };

async function ask(graphql, query, variables) {
  const answer = await graphql(query, variables);
  if (answer.errors) throw new Error(answer.errors[0].message);
  return answer.data;
}

async function creator({ graphql }) {
  const { getUser } = await ask(graphql, 'query($email: ID!) { getUser(email: $email) { email name totalProductsCreated } }', { email: CREATOR_EMAIL });
  return getUser;
}

self.addGraphQLResolvers({
  'Query.product': async ({ args, graphql }) => {
    const { getProduct } = await ask(graphql, 'query($id: ID!) { getProduct(id: $id) { id sku package notes variation { id } } }', { id: args.id });
    return getProduct;
  },
  'Query.deprecatedProduct': async ({ args, graphql }) => {
    const { queryDeprecatedProduct } = await ask(
      graphql,
      'query($sku: String!) { queryDeprecatedProduct(filter: { sku: { eq: $sku } }) { sku package reason } }',
      { sku: args.sku },
    );
    return queryDeprecatedProduct.find((product) => product.package === args.package) ?? null;
  },
  'Product.createdBy': creator,
  'DeprecatedProduct.createdBy': creator,
  'Product.dimensions': async ({ graphql }) => {
    const { queryProductDimension } = await ask(graphql, '{ queryProductDimension(first: 1) { size weight unit } }');
    return queryProductDimension[0] ?? null;
  },
  'Product.research': async ({ parent, graphql }) => {
    const { queryProductResearch } = await ask(graphql, '{ queryProductResearch { outcome study { caseNumber description } } }');
    return queryProductResearch.filter((research) => research.study.caseNumber === RESEARCH_CASE_BY_PRODUCT[parent.id]);
  },
  'User.averageProductsCreatedPerYear': ({ parent }) =>
    parent.totalProductsCreated ? Math.round(parent.totalProductsCreated / parent.yearsOfEmployment) : null,
});
