import { healthProtoPath, loadHealthService } from './health-proto';

describe('grpc.health.v1 contract', () => {
  it('is found beside the loader when running from source', () => {
    expect(healthProtoPath()).toBe(`${__dirname}/proto/health.proto`);
  });

  it('defines Check (unary) and Watch (server streaming) under the standard path', () => {
    const { service } = loadHealthService();
    expect(service.Check.path).toBe('/grpc.health.v1.Health/Check');
    expect(service.Check.responseStream).toBe(false);
    expect(service.Watch.path).toBe('/grpc.health.v1.Health/Watch');
    expect(service.Watch.responseStream).toBe(true);
  });

  it('loads enums as strings, so a status reads SERVING rather than 1', () => {
    const { service } = loadHealthService();
    const encoded = service.Check.responseSerialize({ status: 'SERVING' });
    expect(service.Check.responseDeserialize(encoded)).toEqual({ status: 'SERVING' });
  });
});
