import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CookieShape, readCookie, serializeCookie } from './http-cookie';
import type { IssuedRefreshToken } from './refresh-token-rotation';

/** An httpOnly cookie scoped to the auth routes that carries the refresh token. */
export class RefreshCookie {
  constructor(
    readonly shape: CookieShape,
    private readonly secure: boolean,
  ) {}

  read(request: FastifyRequest): string | undefined {
    return readCookie(this.shape, request.headers.cookie);
  }

  set(reply: FastifyReply, issued: IssuedRefreshToken): void {
    void reply.header('Set-Cookie', serializeCookie(this.shape, issued.token, issued, this.secure));
  }

  clear(reply: FastifyReply): void {
    void reply.header('Set-Cookie', serializeCookie(this.shape, null, null, this.secure));
  }
}

/**
 * How the refresh token travels between a client and a service. The rotation is the same
 * everywhere; only the transport differs per service.
 */
export interface RefreshTokenTransport {
  /** The token the client presents (`bodyToken`: a `refresh_token` field, when the route has one). */
  presented(request: FastifyRequest, bodyToken?: string): string | undefined;
  /** Hands a new token to the client (a cookie; the body is the controller's DTO). */
  deliver(reply: FastifyReply, issued: IssuedRefreshToken): void;
  clear(reply: FastifyReply): void;
}

/** Cookie only: the token never appears in a request or response body. */
export class CookieRefreshTransport implements RefreshTokenTransport {
  constructor(private readonly cookie: RefreshCookie) {}

  presented(request: FastifyRequest): string | undefined {
    return this.cookie.read(request);
  }

  deliver(reply: FastifyReply, issued: IssuedRefreshToken): void {
    this.cookie.set(reply, issued);
  }

  clear(reply: FastifyReply): void {
    this.cookie.clear(reply);
  }
}

/**
 * Body or cookie: a `refresh_token` body field wins over the cookie; new tokens are set as the
 * cookie and also returned in the body by the controller (clients without cookies).
 */
export class BodyOrCookieRefreshTransport implements RefreshTokenTransport {
  constructor(private readonly cookie: RefreshCookie) {}

  presented(request: FastifyRequest, bodyToken?: string): string | undefined {
    return bodyToken ?? this.cookie.read(request);
  }

  deliver(reply: FastifyReply, issued: IssuedRefreshToken): void {
    this.cookie.set(reply, issued);
  }

  clear(reply: FastifyReply): void {
    this.cookie.clear(reply);
  }
}
