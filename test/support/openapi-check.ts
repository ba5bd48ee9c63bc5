import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type supertest from 'supertest';

import { openApiDocument } from '../../rest-facade/openapi/document';

type Agent = ReturnType<typeof supertest>;
type Schema = Record<string, unknown>;

interface DocumentedOperation {
  method: string;
  template: string;
  pattern: RegExp;
  parameters: number;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const document = openApiDocument();
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema(document, 'openapi.json');

const OPERATIONS: DocumentedOperation[] = Object.entries(document.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    method,
    template,
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    parameters: (template.match(/\{/g) ?? []).length,
    responses: (operation as { responses: DocumentedOperation['responses'] }).responses,
  })),
);

/** The documented operation a request reaches: the most literal template that matches (upcoming before {id}). */
function documentedOperation(method: string, url: string): DocumentedOperation | undefined {
  const path = new URL(url, 'http://x').pathname.replace(/(.)\/$/, '$1');
  const wanted = method.toLowerCase() === 'patch' ? 'put' : method.toLowerCase();
  return OPERATIONS.filter((operation) => operation.method === wanted && operation.pattern.test(path)).sort(
    (a, b) => a.parameters - b.parameters,
  )[0];
}

/** `<method> <path template> <status>` of every answer checked in this test file. */
export const checkedAnswers = new Set<string>();

const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * Throws unless the answer is one the document describes for its operation: a listed status (5xx falls to
 * `default`), the media type, and a body valid against the schema. Undocumented paths are not checked.
 */
export function checkAgainstDocument(
  method: string,
  url: string,
  answer: { status: number; headers: Record<string, string>; body: unknown; text?: string },
): void {
  const operation = documentedOperation(method, url);
  if (!operation) return;
  const status = String(answer.status);
  const key = status in operation.responses ? status : answer.status >= 500 ? 'default' : null;
  const where = `${method.toUpperCase()} ${url} (${operation.template})`;
  if (key === null) throw new Error(`${where} answered ${status}, which the API document does not list`);
  checkedAnswers.add(`${operation.method} ${operation.template} ${status}`);
  const content = operation.responses[key].content;
  if (!content) {
    if (answer.text) throw new Error(`${where} answered ${status} with a body the document does not describe`);
    return;
  }
  const [mediaType] = Object.keys(content);
  if (!String(answer.headers['content-type'] ?? '').startsWith(mediaType)) {
    throw new Error(`${where} answered ${answer.headers['content-type']}, the document says ${mediaType}`);
  }
  if (mediaType !== 'application/json') return;
  const pointer = `openapi.json#/paths/${operation.template.replace(/~/g, '~0').replace(/\//g, '~1')}/${operation.method}/responses/${key}/content/application~1json/schema`;
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: pointer } as Schema);
    validators.set(pointer, validate);
  }
  if (!validate(answer.body)) {
    const problems = (validate.errors ?? [])
      .slice(0, 5)
      .map((problem) => `${problem.instancePath || '(body)'} ${problem.message} ${JSON.stringify(problem.params)}`);
    throw new Error(`${where} answered ${status} with a body that breaks the API document:\n${problems.join('\n')}`);
  }
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** The agent, with every answer it receives checked against the API document before the test sees it. */
export function checkedAgent(agent: Agent): Agent {
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property !== 'string' || !METHODS.has(property) || typeof value !== 'function') return value;
      return (url: string, ...rest: unknown[]) => {
        const test = (value as (...args: unknown[]) => supertest.Test).call(target, url, ...rest);
        const then = test.then.bind(test);
        test.then = ((onFulfilled, onRejected) =>
          then((response) => {
            checkAgainstDocument(property, url, response);
            return response;
          }).then(onFulfilled, onRejected)) as typeof test.then;
        return test;
      };
    },
  });
}
