import Decimal from 'decimal.js';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { CurrencyResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

const DECIMAL_TEXT = /^-?\d{1,20}(\.\d{1,12})?$/;

function decimalText(value: unknown): string {
  if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (value instanceof Decimal && value.isFinite()) return value.toFixed();
  throw new GraphQLError(`A decimal is a string such as "12.50"; ${JSON.stringify(value)} is not one.`);
}

/**
 * An exact decimal number, as a string ("12.50"): JSON numbers are binary floats, which cannot hold most
 * amounts of money exactly. Taken as a string (or a whole number); answered as the string the service keeps.
 */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal number written as a string, such as "12.50" or "-3".',
  specifiedByURL: 'https://speleotrove.com/decimal/decarith.html',
  serialize: decimalText,
  parseValue: decimalText,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT) return decimalText(ast.value);
    throw new GraphQLError('A decimal is written as a string, such as "12.50".', { nodes: ast });
  },
});

@ObjectType('Money', { description: 'An amount of money in a currency.' })
export class Money {
  @Field(() => DecimalScalar, { description: 'The amount, exact, in the currency (not in its minor unit).' })
  amount!: string;

  @Field(() => CurrencyResolver, { description: 'The ISO 4217 code of the currency.' })
  currency!: string;
}

/** An amount in a currency as GraphQL shows it: both or nothing. */
export function money(amount: string, currency: string): Money;
export function money(amount: string | null | undefined, currency: string | null | undefined): Money | null;
export function money(amount: string | null | undefined, currency: string | null | undefined): Money | null {
  return amount === null || amount === undefined || !currency ? null : { amount, currency };
}
