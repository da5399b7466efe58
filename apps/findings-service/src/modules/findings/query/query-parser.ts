import {
  ComparisonOperator,
  FieldTermNode,
  QueryNode,
  QueryTermNode,
  QueryValue,
} from './query-ast';
import {
  DEFAULT_QUERY_FIELD_CATALOG,
  MAX_QUERY_ALTERNATIVES,
  MAX_QUERY_LENGTH,
  MAX_QUERY_TERMS,
  MIN_GLOB_CHARACTERS,
  QueryFieldCatalog,
  QueryFieldDefinition,
} from './query-field-catalog';
import { FieldToken, KeywordToken, QueryLexer, QueryToken, ValueToken } from './query-lexer';
import { QuerySyntaxError } from './query-syntax.errors';

const NUMBER = /^-?\d+(\.\d+)?$/;

function fail(position: number, problem: string): never {
  throw new QuerySyntaxError(position, problem);
}

function isKeyword(token: QueryToken): token is KeywordToken {
  return token.type === 'and' || token.type === 'or';
}

function keyword(token: KeywordToken): string {
  return token.type.toUpperCase();
}

class QueryParser {
  constructor(private readonly catalog: QueryFieldCatalog) {}

  parse(tokens: QueryToken[]): QueryNode | undefined {
    let root: QueryNode | undefined;
    let pending: KeywordToken | undefined;
    let terms = 0;
    for (const token of tokens) {
      if (isKeyword(token)) {
        if (root === undefined)
          fail(token.position, `a query cannot start with "${keyword(token)}"`);
        if (pending) {
          fail(
            token.position,
            `expected a term after "${keyword(pending)}", found "${keyword(token)}"`,
          );
        }
        pending = token;
        continue;
      }
      terms += 1;
      if (terms > MAX_QUERY_TERMS)
        fail(token.position, `too many terms (at most ${MAX_QUERY_TERMS})`);
      const term = this.term(token);
      root =
        root === undefined
          ? term
          : {
              type: pending?.type ?? 'and',
              left: root,
              right: term,
              explicit: pending !== undefined,
              position: pending?.position ?? term.position,
            };
      pending = undefined;
    }
    if (pending) fail(pending.position, `"${keyword(pending)}" must be followed by a term`);
    return root;
  }

  private term(token: Exclude<QueryToken, KeywordToken>): QueryTermNode {
    if (token.type === 'text') {
      const { text, quoted, negated, position } = token;
      return { type: 'text', text, quoted, negated, position };
    }
    const field = token.name.toLowerCase();
    const definition = Object.hasOwn(this.catalog.fields, field)
      ? this.catalog.fields[field]
      : undefined;
    if (!definition) {
      const valid = Object.keys(this.catalog.fields).join(', ');
      fail(token.namePosition, `unknown field "${token.name}"; valid fields: ${valid}`);
    }
    if (token.operator !== ':') return this.comparison(token, field, definition);
    if (token.values.length > MAX_QUERY_ALTERNATIVES) {
      fail(
        token.values[MAX_QUERY_ALTERNATIVES].position,
        `too many values for "${field}" (at most ${MAX_QUERY_ALTERNATIVES} separated by "|")`,
      );
    }
    const values = token.values.map((v) => this.value(field, definition, v));
    const node: FieldTermNode = {
      type: 'field',
      field,
      negated: token.negated,
      values,
      position: token.position,
    };
    return node;
  }

  private comparison(
    token: FieldToken,
    field: string,
    definition: QueryFieldDefinition,
  ): QueryTermNode {
    const operator = token.operator as ComparisonOperator;
    if (definition.type !== 'number') {
      fail(
        token.operatorPosition,
        `comparison "${operator}" is only allowed on numeric fields; "${field}" is ${definition.type}`,
      );
    }
    if (token.values.length > 1) {
      fail(token.values[1].position - 1, `a comparison takes a single value`);
    }
    const value = token.values[0];
    if (value.quoted || !NUMBER.test(value.text)) {
      fail(
        value.position,
        `expected a number after "${token.name}${operator}", found "${value.text}"`,
      );
    }
    return {
      type: 'comparison',
      field,
      operator,
      value: Number(value.text),
      negated: token.negated,
      position: token.position,
    };
  }

  private value(field: string, definition: QueryFieldDefinition, token: ValueToken): QueryValue {
    const { text, quoted, position } = token;
    const glob = !quoted && text.includes('*');
    const base = { raw: text, glob, quoted, position };
    if (glob) {
      if (definition.type !== 'text' && definition.type !== 'text_array') {
        fail(
          position,
          `patterns with "*" are only allowed on text fields; "${field}" is ${definition.type}`,
        );
      }
      if (text.replace(/\*/g, '').length < MIN_GLOB_CHARACTERS) {
        fail(
          position,
          `pattern "${text}" needs at least ${MIN_GLOB_CHARACTERS} characters besides "*"`,
        );
      }
      return { ...base, value: text };
    }
    switch (definition.type) {
      case 'enum': {
        const allowed = definition.values ?? [];
        const canonical = allowed.find((v) => v.toLowerCase() === text.toLowerCase());
        if (canonical === undefined) {
          fail(
            position,
            `"${text}" is not a valid ${field}; expected one of ${allowed.join(', ')}`,
          );
        }
        return { ...base, value: canonical };
      }
      case 'boolean': {
        const lower = text.toLowerCase();
        if (lower !== 'true' && lower !== 'false') {
          fail(position, `"${text}" is not a valid ${field}; expected true or false`);
        }
        return { ...base, value: lower === 'true' };
      }
      case 'number':
        if (!NUMBER.test(text)) fail(position, `expected a number for "${field}", found "${text}"`);
        return { ...base, value: Number(text) };
      case 'text':
      case 'text_array':
        return { ...base, value: definition.normalize ? definition.normalize(text) : text };
    }
  }
}

/**
 * Parses a query-mode string into a left-deep AST (see QUERY-LANGUAGE.md). Returns undefined
 * for an empty query. Throws `QuerySyntaxError` naming the 1-based position and the problem.
 */
export function parseQuery(
  input: string,
  catalog: QueryFieldCatalog = DEFAULT_QUERY_FIELD_CATALOG,
): QueryNode | undefined {
  if (input.length > MAX_QUERY_LENGTH) {
    fail(MAX_QUERY_LENGTH + 1, `the query is longer than ${MAX_QUERY_LENGTH} characters`);
  }
  return new QueryParser(catalog).parse(new QueryLexer(input).tokens());
}
