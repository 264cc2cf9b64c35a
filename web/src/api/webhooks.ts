import type {
  DeliveryRow,
  RedeliverAnswer,
  RedeliverBody,
  Webhook,
  WebhookBody,
  WebhookList,
  WebhookWithSecret,
} from '@api/contracts/webhooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';

/**
 * Webhook endpoints (api/webhooks): the list with the types they may receive, add and change, rotate the secret,
 * enable, disable, delete, the delivery log and redelivery.
 */

export type { DeliveryRow, Webhook, WebhookBody, WebhookWithSecret };
export const WEBHOOKS_KEY = 'appstore';
const ENDPOINT = '/api/webhooks';
const one = (id: string) => `${ENDPOINT}/${encodeURIComponent(id)}`;
export const deliveriesEndpoint = (id: string) => `${one(id)}/deliveries`;

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
};

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list(), queryFn: () => apiData<WebhookList>(ENDPOINT) });
}

/** A change to endpoints: the list is read again. */
function useWebhookChange<Input, Data>(request: (input: Input) => Promise<Answer<Data>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export const useAddWebhook = () =>
  useWebhookChange((body: WebhookBody) => api<Answer<WebhookWithSecret>>(ENDPOINT, { method: 'POST', body }));

export const useUpdateWebhook = () =>
  useWebhookChange(({ id, body }: { id: string; body: WebhookBody }) =>
    api<Answer<Webhook>>(one(id), { method: 'PUT', body }),
  );

export const useRotateWebhook = () =>
  useWebhookChange(({ id, windowHours }: { id: string; windowHours: number }) =>
    api<Answer<WebhookWithSecret>>(`${one(id)}/rotate`, {
      method: 'POST',
      body: { window_hours: windowHours },
    }),
  );

export const useSwitchWebhook = () =>
  useWebhookChange(({ id, to }: { id: string; to: 'enable' | 'disable' }) =>
    api<Answer<Webhook>>(`${one(id)}/${to}`, { method: 'POST' }),
  );

export const useDeleteWebhook = () =>
  useWebhookChange((id: string) => api<Answer<{ id: string }>>(one(id), { method: 'DELETE' }));

export const useRedeliver = () =>
  useWebhookChange(({ id, body }: { id: string; body: RedeliverBody }) =>
    api<Answer<RedeliverAnswer>>(`${one(id)}/redeliver`, { method: 'POST', body }),
  );
