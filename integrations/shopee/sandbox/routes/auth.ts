import { accessTokenGetRequest, SHOPEE_LIMITS, SHOPEE_PATHS, tokenGetRequest } from '../../schemas';
import { MINUTE } from '../generator';
import type { SandboxWorld } from '../world';
import { parse, Refusal, type RouteTable, wrongParameters } from './common';

/**
 * auth/token/get (a code, good once for 10 minutes, for the first pair), auth/access_token/get (a refresh token,
 * good once: the answer carries the next one; the access tokens it replaces live 5 more minutes) and
 * shop/get_shop_info. Token answers sit beside `error`, not in `response`, as Shopee's do.
 */
export function authRoutes(world: SandboxWorld): RouteTable {
  return [
    [
      SHOPEE_PATHS.tokenGet,
      {
        method: 'POST',
        level: 'public',
        placement: 'top',
        handle({ body, partner, now }) {
          const request = parse(tokenGetRequest, body);
          if (request.partner_id !== partner.partnerId)
            throw wrongParameters('partner_id in the body must match.');
          const code = world.codes.get(request.code);
          if (
            !code ||
            code.used ||
            code.expires_at <= now ||
            code.partner_id !== partner.partnerId ||
            code.shop_id !== request.shop_id
          )
            throw new Refusal(403, 'error_auth', 'Invalid code.');
          code.used = true;
          const { access, refresh } = world.issuePair(partner.partnerId, request.shop_id);
          return {
            access_token: access.token,
            refresh_token: refresh.token,
            expire_in: SHOPEE_LIMITS.accessTokenSeconds,
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.accessTokenGet,
      {
        method: 'POST',
        level: 'public',
        placement: 'top',
        handle({ body, partner, now }) {
          const request = parse(accessTokenGetRequest, body);
          if (request.partner_id !== partner.partnerId)
            throw wrongParameters('partner_id in the body must match.');
          const spent = world.refreshTokens.get(request.refresh_token);
          if (
            !spent ||
            spent.expires_at <= now ||
            spent.partner_id !== partner.partnerId ||
            spent.shop_id !== request.shop_id
          )
            throw new Refusal(403, 'error_auth', 'Invalid refresh_token.');
          world.refreshTokens.delete(spent.token);
          for (const access of world.accessTokens.values()) {
            if (access.partner_id === spent.partner_id && access.shop_id === spent.shop_id)
              access.expires_at = Math.min(access.expires_at, now + 5 * MINUTE);
          }
          const { access, refresh } = world.issuePair(partner.partnerId, request.shop_id);
          return {
            partner_id: partner.partnerId,
            shop_id: request.shop_id,
            access_token: access.token,
            refresh_token: refresh.token,
            expire_in: SHOPEE_LIMITS.accessTokenSeconds,
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.shopInfo,
      {
        method: 'GET',
        level: 'shop',
        placement: 'top',
        handle({ shop, partner }) {
          const auth = shop!.authorizations.find((a) => a.partner_id === partner.partnerId);
          return {
            shop_name: shop!.shop_name,
            region: shop!.region,
            status: 'NORMAL',
            is_cb: false,
            auth_time: auth?.auth_time ?? 0,
            expire_time: auth?.expire_time ?? 0,
          };
        },
      },
    ],
  ];
}
