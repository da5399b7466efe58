import request from 'supertest';
import type { Auth } from '../support/catalog';
import { freshProduct, Product } from '../support/findings-seed';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import {
  PROJECT_CALLERS,
  projectCallers,
  type ProjectCaller,
  type MatrixRoute,
  send,
  wrongAnswers,
} from '../support/route-matrix';
import { seedChannelPlugin } from '../notifications/support';
import { seedDelivery } from '../notifications/route-seed';

/**
 * The notification delivery routes (docs/findings-service/notifications.md) x every kind of
 * caller: user tokens only, manage_notifications on the project (project admin, administrator);
 * a member without it 403, a user who is not a member 404, a service key 403 whatever it holds.
 */
let t: TestApp;
let admin: Login;
let product: Product;
let channelId: string;
let callers: Record<ProjectCaller, Auth | undefined>;

const MANAGERS: Record<ProjectCaller, number> = {
  anonymous: 401,
  'key: read_findings': 403,
  'key: every permission': 403,
  'user: not a member': 404,
  'user: viewer': 403,
  'user: analyst': 403,
  'user: project admin': 200,
  administrator: 200,
};

const routes: MatrixRoute<ProjectCaller>[] = [
  {
    name: 'GET /api/v1/projects/{id}/notification-deliveries',
    call: (auth) =>
      send(
        request(t.url).get(`/api/v1/projects/${product.project_id}/notification-deliveries`),
        auth,
      ),
    expected: MANAGERS,
  },
  {
    name: 'POST /api/v1/projects/{id}/notification-deliveries/{delivery_id}/retry',
    // A failed delivery of its own for every call (a retried one is no longer retryable).
    call: async (auth) => {
      const { deliveryId } = await seedDelivery(t, product.project_id, channelId, 'failed', {
        code: 'rejected',
        message: 'chat not found',
      });
      return send(
        request(t.url).post(
          `/api/v1/projects/${product.project_id}/notification-deliveries/${deliveryId}/retry`,
        ),
        auth,
      );
    },
    expected: MANAGERS,
  },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  channelId = await seedChannelPlugin(t, 'matrix-notify-channel');
  callers = await projectCallers(t, admin, product.project_id);
});
afterAll(() => t.close());

describe('Access - notification delivery routes x caller', () => {
  it('every route answers each caller as the access table says', async () => {
    expect(await wrongAnswers(routes, PROJECT_CALLERS, callers)).toEqual([]);
  });

  it('refusals name their reason: 403 access_denied for a member, 404 project_not_found for a stranger', async () => {
    const path = `/api/v1/projects/${product.project_id}/notification-deliveries`;
    const member = await callers['user: analyst']!.apply(request(t.url).get(path));
    expect(member.body.code).toBe('access_denied');
    const stranger = await callers['user: not a member']!.apply(request(t.url).get(path));
    expect(stranger.body.code).toBe('project_not_found');
  });
});
