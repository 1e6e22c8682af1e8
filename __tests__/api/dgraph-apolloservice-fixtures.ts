/**
 * Schemas written in the style of Dgraph's `apolloservice` test data (graphql/schema/testdata/apolloservice
 * in dgraph-io/dgraph), one for each of its inputs: each exercises the rules of the Dgraph input named
 * beside it (the same directives in the same places: `@key`, `@extends`, `extend type`, `@external`,
 * `@provides`/`@requires`, `@secret` with `@auth` rules of each kind, `@hasInverse`, `@id` keys,
 * `@generate` switches, `@remote` with a `@custom` query) in a domain of its own. Beside each schema: the
 * root types of the `_service { sdl }` Dgraph would answer for it (`type Query` and `type Mutation` only),
 * written by applying to the schema the rules Dgraph's input/output pair for that input shows (the same
 * operations in the same order, with the same argument shapes), and checked against Dgraph's output for
 * that input; not copied from it. The rest of Dgraph's output (its directive definitions, unused filter
 * inputs, geo types) is left out: README "Different from Dgraph, and why" says why Autograph does not print
 * those.
 */

export interface ApolloServiceFixture {
  /** What this schema is about (its own domain). */
  name: string;
  /** The Dgraph testdata input (apolloservice/input/<name>.graphql) whose rules this schema exercises. */
  dgraphInput: string;
  input: string;
  /** The `type Query { ... }` block Dgraph would answer for `input`, or '' when it would have none. */
  query: string;
  /** The `type Mutation { ... }` block Dgraph would answer for `input`, or '' when it would have none. */
  mutation: string;
}

export const DGRAPH_APOLLOSERVICE: ApolloServiceFixture[] = [
  {
    // A type with an ID, a @secret field and @auth rules of each kind (password, query with `or` of
    // graph-traversal rules and a filter-only rule, add, update), a @hasInverse relation to an owned
    // entity whose @key is an @id field, itself with an update rule.
    name: 'library loans behind auth rules',
    dgraphInput: 'auth-directive',
    input: `type Loan @secret(field: "pin") @auth(
    password: { rule: "{$DESK: { eq: \\"Circulation\\" } }"},
    query: {
        or: [
            { rule: """
            query($X_Library_Card: String!) {
                queryLoan {
                    borrower (filter: { cardNumber: { eq: $X_Library_Card }}) {
                        cardNumber
                    }
                }
            }""" },
            { rule: """
            query($X_Library_Card: String!) {
                queryLoan {
                    guarantors (filter: { cardNumber: { eq: $X_Library_Card }}) {
                        cardNumber
                    }
                }
            }""" },
            { rule: """
            query {
                queryLoan(filter: { onDisplay: true }) {
                    id
                }
            }""" },
        ]
    },
    add: { rule: """
            query($X_Library_Card: String!) {
                queryLoan {
                    borrower (filter: { cardNumber: { eq: $X_Library_Card }}) {
                        cardNumber
                    }
                }
            }""" },
    update: { rule: """
            query($X_Library_Card: String!) {
                queryLoan {
                    borrower (filter: { cardNumber: { eq: $X_Library_Card }}) {
                        cardNumber
                    }
                }
            }""" },
) {
    id: ID!
    bookTitle: String
    remark: String
    onDisplay: Boolean @search
    returnedOn: String @search
    guarantors: [Member]
    borrower: Member @hasInverse(field: "loans")
    staffMemo: String
}

type Member @key(fields: "cardNumber") @auth(
    update: { rule: """
            query($X_Library_Card: String!) {
                queryMember(filter: { cardNumber: { eq: $X_Library_Card }}) {
                    cardNumber
                }
            }""" }
){
    cardNumber: String! @id
    loans: [Loan]
}
`,
    query: `type Query {
	getLoan(id: ID!): Loan
	checkLoanPassword(id: ID!, pin: String!): Loan
	queryLoan(filter: LoanFilter, order: LoanOrder, first: Int, offset: Int): [Loan]
	aggregateLoan(filter: LoanFilter): LoanAggregateResult
	getMember(cardNumber: String!): Member
	queryMember(filter: MemberFilter, order: MemberOrder, first: Int, offset: Int): [Member]
	aggregateMember(filter: MemberFilter): MemberAggregateResult
}`,
    mutation: `type Mutation {
	addLoan(input: [AddLoanInput!]!): AddLoanPayload
	updateLoan(input: UpdateLoanInput!): UpdateLoanPayload
	deleteLoan(filter: LoanFilter!): DeleteLoanPayload
	addMember(input: [AddMemberInput!]!, upsert: Boolean): AddMemberPayload
	updateMember(input: UpdateMemberInput!): UpdateMemberPayload
	deleteMember(filter: MemberFilter!): DeleteMemberPayload
}`,
  },
  {
    // A @remote type (no operations of its own) answered by a @custom query, declared before an owned
    // entity keyed on its ID; the custom query comes first in Query. Refused today (no @remote support):
    // the test switches this fixture on once @remote types are supported.
    name: 'parcels beside a remote courier service',
    dgraphInput: 'custom-directive',
    input: `type Courier @remote {
	id: ID!
	callSign: String!
}

type Parcel @key(fields: "id"){
	id: ID!
	label: String!
}

type Query {
	couriersNearParcel(id: ID!): [Courier] @custom(http: {
		url: "http://couriers.example.com/nearby",
		method: "GET"
	})
}`,
    query: `type Query {
	couriersNearParcel(id: ID!): [Courier]
	getParcel(id: ID!): Parcel
	queryParcel(filter: ParcelFilter, order: ParcelOrder, first: Int, offset: Int): [Parcel]
	aggregateParcel(filter: ParcelFilter): ParcelAggregateResult
}`,
    mutation: `type Mutation {
	addParcel(input: [AddParcelInput!]!): AddParcelPayload
	updateParcel(input: UpdateParcelInput!): UpdateParcelPayload
	deleteParcel(filter: ParcelFilter!): DeleteParcelPayload
}`,
  },
  {
    // An owned entity (@key on its ID) with a @provides relation; an @extends type whose ID key and
    // provided fields are @external; an `extend type` whose key is an @external @id String, with a
    // @requires field. Only the owned entity has queries; all three have add/update/delete, and the one
    // keyed on an @id field has `upsert`.
    name: 'concert tours of extended musicians and albums',
    dgraphInput: 'extended-types',
    input: `type Tour @key(fields: "id") {
    id: ID!
    lineup: [Musician] @provides(fields: "stageName born")
    title: String!
    opensOn: String
    closesOn: String
}

type Musician @key(fields: "id") @extends {
    id: ID! @external
    stageName: String @external
    born: Int @external
    tours: [Tour]
}

 extend type Album @key(fields: "catalogNo") {
    catalogNo: String! @id @external
    listPrice: Int @external
    trackCount: Int @external
    onVinyl: Boolean
    royaltyEstimate: Float @requires(fields: "listPrice trackCount")
  }`,
    query: `type Query {
	getTour(id: ID!): Tour
	queryTour(filter: TourFilter, order: TourOrder, first: Int, offset: Int): [Tour]
	aggregateTour(filter: TourFilter): TourAggregateResult
}`,
    mutation: `type Mutation {
	addTour(input: [AddTourInput!]!): AddTourPayload
	updateTour(input: UpdateTourInput!): UpdateTourPayload
	deleteTour(filter: TourFilter!): DeleteTourPayload
	addMusician(input: [AddMusicianInput!]!): AddMusicianPayload
	updateMusician(input: UpdateMusicianInput!): UpdateMusicianPayload
	deleteMusician(filter: MusicianFilter!): DeleteMusicianPayload
	addAlbum(input: [AddAlbumInput!]!, upsert: Boolean): AddAlbumPayload
	updateAlbum(input: UpdateAlbumInput!): UpdateAlbumPayload
	deleteAlbum(filter: AlbumFilter!): DeleteAlbumPayload
}`,
  },
  {
    // An interface with a @secret field whose @generate switches off get and the password check (an
    // interface has no add); a type implementing it that only switches aggregate on (so it keeps get and
    // inherits the secret's check); a type without a secret that keeps only query among its queries
    // (`password: true` adds nothing without one) and only update among its mutations.
    name: 'marketplace accounts with generate switches',
    dgraphInput: 'generate-directive',
    input: `interface Account @secret(field: "passphrase") @generate(
    query: {
        get: false,
        password: false
    },
    subscription: false
) {
    id: ID!
    handle: String! @search(by: [exact])
    contacts: [Account]
}

type Seller implements Account @generate(
    query: {
        aggregate: true
    },
    subscription: true
) {
    listingCount: Int
}

type Buyer @withSubscription @generate(
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
    handle: String!
}
`,
    query: `type Query {
	queryAccount(filter: AccountFilter, order: AccountOrder, first: Int, offset: Int): [Account]
	aggregateAccount(filter: AccountFilter): AccountAggregateResult
	getSeller(id: ID!): Seller
	checkSellerPassword(id: ID!, passphrase: String!): Seller
	querySeller(filter: SellerFilter, order: SellerOrder, first: Int, offset: Int): [Seller]
	aggregateSeller(filter: SellerFilter): SellerAggregateResult
	queryBuyer(filter: BuyerFilter, order: BuyerOrder, first: Int, offset: Int): [Buyer]
}`,
    mutation: `type Mutation {
	updateAccount(input: UpdateAccountInput!): UpdateAccountPayload
	deleteAccount(filter: AccountFilter!): DeleteAccountPayload
	addSeller(input: [AddSellerInput!]!): AddSellerPayload
	updateSeller(input: UpdateSellerInput!): UpdateSellerPayload
	deleteSeller(filter: SellerFilter!): DeleteSellerPayload
	updateBuyer(input: UpdateBuyerInput!): UpdateBuyerPayload
}`,
  },
  {
    // The only type is an `extend type` keyed on an @external @id String: no Query at all, and its
    // mutations with `upsert` on add.
    name: 'a single extended railway station',
    dgraphInput: 'single-extended-type',
    input: `extend type Station @key(fields: "stationCode") {
    stationCode: String! @id @external
    displayName: String!
}
`,
    query: '',
    mutation: `type Mutation {
	addStation(input: [AddStationInput!]!, upsert: Boolean): AddStationPayload
	updateStation(input: UpdateStationInput!): UpdateStationPayload
	deleteStation(filter: StationFilter!): DeleteStationPayload
}`,
  },
];
