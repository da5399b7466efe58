import { loadChannelService } from './channel-proto';
import { loadRunnerService } from './runner-proto';

describe('findsvc.runner.v1.PluginRunner contract', () => {
  it('has unary Load and Unload and a bidirectional Invoke stream', () => {
    const { service } = loadRunnerService();
    expect(service.Load.path).toBe('/findsvc.runner.v1.PluginRunner/Load');
    expect(service.Unload.path).toBe('/findsvc.runner.v1.PluginRunner/Unload');
    expect(service.Invoke.requestStream).toBe(true);
    expect(service.Invoke.responseStream).toBe(true);
  });

  it('round-trips a host call with its oneof member named and the 64-bit id as a string', () => {
    const { service } = loadRunnerService();
    const bytes = service.Invoke.responseSerialize({
      host_call: { call_id: '18446744073709551615', is_cve_known: { ids: ['CVE-2024-1'] } },
    });
    const decoded = service.Invoke.responseDeserialize(bytes) as Record<string, unknown>;
    expect(decoded['message']).toBe('host_call');
    expect(decoded['host_call']).toMatchObject({
      call_id: '18446744073709551615',
      call: 'is_cve_known',
      is_cve_known: { ids: ['CVE-2024-1'] },
    });
  });
});

describe('findsvc.plugin.channel.v1.Channel contract', () => {
  it('has unary Deliver and Shutdown, and outcomes as strings', () => {
    const { service } = loadChannelService();
    expect(service.Deliver.path).toBe('/findsvc.plugin.channel.v1.Channel/Deliver');
    expect(service.Shutdown.path).toBe('/findsvc.plugin.channel.v1.Channel/Shutdown');
    const bytes = service.Deliver.responseSerialize({ outcome: 'DELIVERED', message: 'sent' });
    expect(service.Deliver.responseDeserialize(bytes)).toEqual({
      outcome: 'DELIVERED',
      message: 'sent',
      result_json: '',
    });
  });
});
