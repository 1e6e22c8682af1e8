/**
 * Dgraph's `apolloservice` test data (graphql/schema/testdata/apolloservice in dgraph-io/dgraph, commit
 * 64804bd2855465cdcb61aad52d27a9d793568aa1): each input schema verbatim, and the root types of the
 * `_service { sdl }` Dgraph answers for it (its output file's `type Query` and `type Mutation` blocks,
 * verbatim; Dgraph's TestApolloServiceQueryResult compares the whole output with
 * GQLSchemaWithoutApolloExtras). The rest of Dgraph's output (its directive definitions, unused filter
 * inputs, geo types) is left out: README "Different from Dgraph, and why" says why Autograph does not
 * print those.
 */

export interface ApolloServiceFixture {
  /** The Dgraph testdata file name (input/<name>.graphql, output/<name>.graphql). */
  name: string;
  input: string;
  /** Dgraph's `type Query { ... }` block, or '' when its output has none. */
  query: string;
  /** Dgraph's `type Mutation { ... }` block, or '' when its output has none. */
  mutation: string;
}

export const DGRAPH_APOLLOSERVICE: ApolloServiceFixture[] = [
  {
    name: 'auth-directive',
    input: `type Todo @secret(field: "pwd") @auth(
    password: { rule: "{$ROLE: { eq: \\"Admin\\" } }"},
    query: {
        or: [
            { rule: """
            query($X_MyApp_User: String!) { 
                queryTodo { 
                    owner (filter: { username: { eq: $X_MyApp_User }}) {
                        username
                    }
                }
            }""" },
            { rule: """
            query($X_MyApp_User: String!) { 
                queryTodo {
                    sharedWith (filter: { username: { eq: $X_MyApp_User }}) {
                        username
                    }
                }
            }""" },
            { rule: """
            query { 
                queryTodo(filter: { isPublic: true }) {
                    id
                }
            }""" },
        ]
    },
    add: { rule: """
            query($X_MyApp_User: String!) { 
                queryTodo {
                    owner (filter: { username: { eq: $X_MyApp_User }}) {
                        username
                    }
                }
            }""" },
    update: { rule: """
            query($X_MyApp_User: String!) { 
                queryTodo {
                    owner (filter: { username: { eq: $X_MyApp_User }}) {
                        username
                    }
                }
            }""" },
) {
    id: ID!
    title: String
    text: String
    isPublic: Boolean @search
    dateCompleted: String @search 
    sharedWith: [User]
    owner: User @hasInverse(field: "todos")
    somethingPrivate: String
}

type User @key(fields: "username") @auth(
    update: { rule: """
            query($X_MyApp_User: String!) { 
                queryUser(filter: { username: { eq: $X_MyApp_User }}) {
                    username
                }
            }""" }
){
    username: String! @id
    todos: [Todo]
}
`,
    query: `type Query {
	getTodo(id: ID!): Todo
	checkTodoPassword(id: ID!, pwd: String!): Todo
	queryTodo(filter: TodoFilter, order: TodoOrder, first: Int, offset: Int): [Todo]
	aggregateTodo(filter: TodoFilter): TodoAggregateResult
	getUser(username: String!): User
	queryUser(filter: UserFilter, order: UserOrder, first: Int, offset: Int): [User]
	aggregateUser(filter: UserFilter): UserAggregateResult
}`,
    mutation: `type Mutation {
	addTodo(input: [AddTodoInput!]!): AddTodoPayload
	updateTodo(input: UpdateTodoInput!): UpdateTodoPayload
	deleteTodo(filter: TodoFilter!): DeleteTodoPayload
	addUser(input: [AddUserInput!]!, upsert: Boolean): AddUserPayload
	updateUser(input: UpdateUserInput!): UpdateUserPayload
	deleteUser(filter: UserFilter!): DeleteUserPayload
}`,
  },
  {
    name: 'custom-directive',
    input: `type User @remote {
	id: ID!
	name: String!
}

type Car @key(fields: "id"){
	id: ID!
	name: String!
}

type Query {
	getMyFavoriteUsers(id: ID!): [User] @custom(http: {
		url: "http://my-api.com",
		method: "GET"
	})
}`,
    query: `type Query {
	getMyFavoriteUsers(id: ID!): [User]
	getCar(id: ID!): Car
	queryCar(filter: CarFilter, order: CarOrder, first: Int, offset: Int): [Car]
	aggregateCar(filter: CarFilter): CarAggregateResult
}`,
    mutation: `type Mutation {
	addCar(input: [AddCarInput!]!): AddCarPayload
	updateCar(input: UpdateCarInput!): UpdateCarPayload
	deleteCar(filter: CarFilter!): DeleteCarPayload
}`,
  },
  {
    name: 'extended-types',
    input: `type Mission @key(fields: "id") {
    id: ID!
    crew: [Astronaut] @provides(fields: "name age")
    designation: String!
    startDate: String
    endDate: String
}

type Astronaut @key(fields: "id") @extends {
    id: ID! @external
    name: String @external
    age: Int @external
    missions: [Mission]
}

 extend type Product @key(fields: "upc") {
    upc: String! @id @external
    price: Int @external
    weight: Int @external
    inStock: Boolean
    shippingEstimate: Float @requires(fields: "price weight")
  }`,
    query: `type Query {
	getMission(id: ID!): Mission
	queryMission(filter: MissionFilter, order: MissionOrder, first: Int, offset: Int): [Mission]
	aggregateMission(filter: MissionFilter): MissionAggregateResult
}`,
    mutation: `type Mutation {
	addMission(input: [AddMissionInput!]!): AddMissionPayload
	updateMission(input: UpdateMissionInput!): UpdateMissionPayload
	deleteMission(filter: MissionFilter!): DeleteMissionPayload
	addAstronaut(input: [AddAstronautInput!]!): AddAstronautPayload
	updateAstronaut(input: UpdateAstronautInput!): UpdateAstronautPayload
	deleteAstronaut(filter: AstronautFilter!): DeleteAstronautPayload
	addProduct(input: [AddProductInput!]!, upsert: Boolean): AddProductPayload
	updateProduct(input: UpdateProductInput!): UpdateProductPayload
	deleteProduct(filter: ProductFilter!): DeleteProductPayload
}`,
  },
  {
    name: 'generate-directive',
    input: `interface Character @secret(field: "password") @generate(
    query: {
        get: false,
        password: false
    },
    subscription: false
) {
    id: ID!
    name: String! @search(by: [exact])
    friends: [Character]
}

type Human implements Character @generate(
    query: {
        aggregate: true
    },
    subscription: true
) {
    totalCredits: Int
}

type Person @withSubscription @generate(
    query: {
        get: false,
        query: true,
        password: true,
        aggregate: false
    },
    mutation: {
        add: false,
        delete: false
    },
    subscription: false
) {
    id: ID!
    name: String!
}
`,
    query: `type Query {
	queryCharacter(filter: CharacterFilter, order: CharacterOrder, first: Int, offset: Int): [Character]
	aggregateCharacter(filter: CharacterFilter): CharacterAggregateResult
	getHuman(id: ID!): Human
	checkHumanPassword(id: ID!, password: String!): Human
	queryHuman(filter: HumanFilter, order: HumanOrder, first: Int, offset: Int): [Human]
	aggregateHuman(filter: HumanFilter): HumanAggregateResult
	queryPerson(filter: PersonFilter, order: PersonOrder, first: Int, offset: Int): [Person]
}`,
    mutation: `type Mutation {
	updateCharacter(input: UpdateCharacterInput!): UpdateCharacterPayload
	deleteCharacter(filter: CharacterFilter!): DeleteCharacterPayload
	addHuman(input: [AddHumanInput!]!): AddHumanPayload
	updateHuman(input: UpdateHumanInput!): UpdateHumanPayload
	deleteHuman(filter: HumanFilter!): DeleteHumanPayload
	updatePerson(input: UpdatePersonInput!): UpdatePersonPayload
}`,
  },
  {
    name: 'single-extended-type',
    input: `extend type Product @key(fields: "id") {
    id: String! @id @external
    name: String!
}
`,
    query: '',
    mutation: `type Mutation {
	addProduct(input: [AddProductInput!]!, upsert: Boolean): AddProductPayload
	updateProduct(input: UpdateProductInput!): UpdateProductPayload
	deleteProduct(filter: ProductFilter!): DeleteProductPayload
}`,
  },
];
