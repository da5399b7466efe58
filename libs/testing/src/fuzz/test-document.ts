/** A small OpenAPI document with the shapes the fuzzer reads (used by its unit tests). */
export const TEST_DOCUMENT = {
  openapi: '3.0.0',
  security: [{ bearer: [] }],
  components: {
    schemas: {
      Item: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', example: 'widget' },
          size: { type: 'integer', minimum: 1 },
          kind: { type: 'string', enum: ['a', 'b'] },
          owner: { $ref: '#/components/schemas/Owner' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
      Owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
    },
  },
  paths: {
    '/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
          { name: 'x-trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: {},
      },
      put: {
        security: [],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
        },
        responses: {},
      },
    },
    '/uploads': {
      post: {
        security: [{ bearer: [] }, { api_key: [] }],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: { type: 'string', format: 'binary' },
                  engine: { type: 'string' },
                },
              },
            },
          },
        },
        responses: {},
      },
    },
  },
};
