import { loadChannelHostService, loadChannelService } from './channel-proto';

describe('findsvc.plugin.channel.v1 contract', () => {
  it('keeps Deliver and Shutdown and adds host_call_token as field 6 of DeliverRequest', () => {
    const { service } = loadChannelService();
    expect(service.Deliver.path).toBe('/findsvc.plugin.channel.v1.Channel/Deliver');
    expect(service.Shutdown.path).toBe('/findsvc.plugin.channel.v1.Channel/Shutdown');
    const encoded = service.Deliver.requestSerialize({
      idempotency_key: 'k',
      host_call_token: 'ab'.repeat(32),
    });
    // field 6, wire type 2 (length-delimited) = tag byte 0x32
    expect(encoded.includes(Buffer.from([0x32, 64]))).toBe(true);
    expect(service.Deliver.requestDeserialize(encoded)).toMatchObject({
      idempotency_key: 'k',
      host_call_token: 'ab'.repeat(32),
    });
  });

  it('defines ChannelHost/SendEmail (unary) for the native e-mail channel', () => {
    const { service } = loadChannelHostService();
    expect(service.SendEmail.path).toBe('/findsvc.plugin.channel.v1.ChannelHost/SendEmail');
    expect(service.SendEmail.responseStream).toBe(false);
    const request = { host_call_token: 't', subject: 's', body: 'b' };
    expect(
      service.SendEmail.requestDeserialize(service.SendEmail.requestSerialize(request)),
    ).toEqual(request);
    const answer = service.SendEmail.responseSerialize({ message_id: '<x@y>' });
    expect(service.SendEmail.responseDeserialize(answer)).toEqual({ message_id: '<x@y>' });
  });
});
