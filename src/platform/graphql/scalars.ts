import { GraphQLScalarType } from 'graphql';
import { LocalDateResolver } from 'graphql-scalars';

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * graphql-scalars' LocalDate, answering our own calendar dates (`YYYY-MM-DD` strings, always valid) as they
 * are: its serialize parsed every date of a page again. Input is checked exactly as before.
 */
export const LocalDateScalar = new GraphQLScalarType({
  ...LocalDateResolver.toConfig(),
  serialize: (value) =>
    typeof value === 'string' && CALENDAR_DATE.test(value) ? value : LocalDateResolver.serialize(value),
});
