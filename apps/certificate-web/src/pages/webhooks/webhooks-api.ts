import { useQuery } from '@tanstack/react-query';
import { api, call, callVoid, type Schemas } from '../../api/client';

export type Webhook = Schemas['WebhookDto'];
export type WebhookInput = Schemas['CreateWebhookDto'];
export type EventType = NonNullable<WebhookInput['event_types']>[number];
export type Delivery = Schemas['WebhookDeliveryDto'];

export const EVENT_TYPES: EventType[] = [
  'request.created',
  'request.approved',
  'request.rejected',
  'certificate.issued',
  'certificate.revoked',
  'device.blocked',
  'device.unblocked',
  'license.activated',
  'license.tamper',
  'license.reanchored',
  'directive.created',
  'directive.reported',
  'directive.cancelled',
];

export const DELIVERIES_PAGE = 25;

export const useWebhooks = () =>
  useQuery({ queryKey: ['webhooks'], queryFn: () => call(api.GET('/api/v1/admin/webhooks')) });

export const createWebhook = (body: WebhookInput) =>
  call(api.POST('/api/v1/admin/webhooks', { body }));

/** The answer carries `secret` only when the body changed it. */
export const updateWebhook = (id: string, body: Schemas['UpdateWebhookDto']) =>
  call(api.PUT('/api/v1/admin/webhooks/{id}', { params: { path: { id } }, body })) as Promise<
    Webhook & { secret?: string }
  >;

export const deleteWebhook = (id: string) =>
  callVoid(api.DELETE('/api/v1/admin/webhooks/{id}', { params: { path: { id } } }));

export const setWebhookEnabled = (id: string, enabled: boolean) =>
  call(
    api.PUT('/api/v1/admin/webhooks/{id}/enabled', { params: { path: { id } }, body: { enabled } }),
  );

export const testWebhook = (id: string) =>
  call(api.POST('/api/v1/admin/webhooks/{id}/test', { params: { path: { id } } }));

export const fetchDeliveries = (id: string, page: number) =>
  call(
    api.GET('/api/v1/admin/webhooks/{id}/deliveries', {
      params: { path: { id }, query: { page, limit: DELIVERIES_PAGE } },
    }),
  );
