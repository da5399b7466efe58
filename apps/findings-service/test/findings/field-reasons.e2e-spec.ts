import request from 'supertest';
import { bearer } from '../support/catalog';
import { Product, seedFindings, startWithProduct } from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

/** Refused forms name each field's reason in the UI's language, with a stable code (issue 25). */
let t: TestApp;
let admin: Login;
let product: Product;

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
});
afterAll(() => t.close());

describe('Field reasons - validation_failed fields[].problems and codes', () => {
  it('gives each field its reason in the language asked, and the codes', async () => {
    const [id] = await seedFindings(t, product, [{}]);
    const body = { status: 'done', comment: 'x'.repeat(4001), assignee_id: 'me' };
    const send = (language: string) =>
      bearer(admin).apply(
        request(t.url).patch(`/api/v1/findings/${id}`).set('Accept-Language', language).send(body),
      );
    const en = (await send('en').expect(400)).body;
    const byField = (b: { fields: { field: string; problems: string[]; codes: string[] }[] }) =>
      Object.fromEntries(b.fields.map((f) => [f.field, { problems: f.problems, codes: f.codes }]));
    expect(byField(en)).toEqual({
      status: {
        problems: [expect.stringMatching(/^one of: new, renewed, /)],
        codes: ['one_of'],
      },
      comment: { problems: ['≤ 4000 characters'], codes: ['max_length'] },
      assignee_id: { problems: ['an id (UUID)'], codes: ['uuid'] },
    });
    const ru = (await send('ru-RU,ru;q=0.9').expect(400)).body;
    expect(byField(ru)).toEqual({
      status: { problems: [expect.stringMatching(/^одно из: new, /)], codes: ['one_of'] },
      comment: { problems: ['≤ 4000 символов'], codes: ['max_length'] },
      assignee_id: { problems: ['идентификатор (UUID)'], codes: ['uuid'] },
    });
  });

  it('reads list-filter and tag problems too', async () => {
    const list = await bearer(admin)
      .apply(request(t.url).get('/api/v1/findings').query({ severity: 'huge,high' }))
      .expect(400);
    expect(list.body.fields).toEqual([
      { field: 'severity', problems: ['not allowed here: HUGE'], codes: ['list_values'] },
    ]);
    const [id] = await seedFindings(t, product, [{}]);
    const tags = await bearer(admin)
      .apply(
        request(t.url)
          .post(`/api/v1/findings/${id}/tags`)
          .send({ tags: ['a b'] }),
      )
      .expect(400);
    expect(tags.body.fields[0]).toMatchObject({
      problems: ['"a b": letters, digits and . _ : / = + @ - only'],
      codes: ['tag_characters'],
    });
  });
});
