import { buildNotificationEvent } from './notification-event';
import { channelThreshold, channelView, mergeIntoDraft } from './notification-filter';

const source = {
  notificationId: '7b0b4f4e-7a35-4f5f-9d59-1f6f8d1b9c11',
  kind: 'new_findings' as const,
  project: { id: '0d7d1c2e-8a57-4ab4-9f3e-0d3f0a1d5e42', name: 'Payments' },
  sealedAt: new Date('2026-11-29T01:00:00.000Z'),
};

function view(n: number) {
  const items = Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    title: i === 0 ? 'x'.repeat(400) : `finding ${i}`,
    severity: i < 2 ? 'CRITICAL' : 'HIGH',
    status: 'new',
    product_id: 'p',
    product: 'api',
    location: `src/db.ts:${i}`,
  }));
  const draft = mergeIntoDraft('new_findings', { counts: {}, items: [] }, items);
  return channelView('new_findings', draft, channelThreshold({ min_severity: 'HIGH' }))!;
}

describe('the notification event (findsvc.notification/1)', () => {
  it('lists a small notification item by item, without links when PUBLIC_WEB_URL is unset', () => {
    const event = buildNotificationEvent(source, view(3), null);
    expect(event).toMatchObject({
      schema: 'findsvc.notification/1',
      kind: 'new_findings',
      notification_id: source.notificationId,
      project: { id: source.project.id, name: 'Payments' },
      created_at: '2026-11-29T01:00:00.000Z',
      threshold: 'HIGH',
      total: 3,
      counts: { CRITICAL: 2, HIGH: 1 },
      digest: false,
      more: 0,
    });
    expect(event.items).toHaveLength(3);
    expect(event.items[0]!.title.length).toBe(300);
    expect(JSON.stringify(event)).not.toMatch(/"url"|list_url/);
    expect(event.items[0]).not.toHaveProperty('product_id');
  });

  it('a large one is a digest with absolute links when PUBLIC_WEB_URL is set', () => {
    const event = buildNotificationEvent(source, view(25), 'https://findings.example/');
    expect(event).toMatchObject({ digest: true, total: 25, more: 5 });
    expect(event.items).toHaveLength(20);
    expect(event.project.url).toBe(`https://findings.example/projects/${source.project.id}`);
    expect(event.items[0]!.url).toBe(`https://findings.example/findings/${event.items[0]!.id}`);
    const list = new URL(event.list_url!);
    expect(list.pathname).toBe('/findings');
    expect(list.searchParams.get('q')).toBe(
      `project_id:${source.project.id} severity:CRITICAL|HIGH`,
    );
  });
});
