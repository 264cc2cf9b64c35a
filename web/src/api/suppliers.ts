import type { NewSupplier, Supplier, SupplierOption } from '@api/contracts/purchases';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Answer, api, apiData } from './client';

/** The purchasing suppliers (api/purchases/suppliers.ts): the grid's endpoint, the form's options, add and change. */

export { REQUIRED_SUPPLIER_COLUMNS, SUPPLIER_COLUMNS, SUPPLIER_LIMITS } from '@domain/purchases/supplier';
export type { Supplier, SupplierOption };

export const SUPPLIERS_ENDPOINT = '/api/purchases/suppliers';

/** What the supplier form holds and sends (every field, as the form shows it). */
export type SupplierBody = Required<z.input<typeof NewSupplier>>;

export const supplierKeys = {
  all: ['suppliers'] as const,
  lists: () => [...supplierKeys.all, 'list'] as const,
  list: (query: unknown) => [...supplierKeys.lists(), query] as const,
  detail: (id: string) => [...supplierKeys.all, 'detail', id] as const,
  options: () => [...supplierKeys.all, 'options'] as const,
};

const enc = encodeURIComponent;

export function useSupplierOptions() {
  return useQuery({
    queryKey: supplierKeys.options(),
    queryFn: () => apiData<SupplierOption[]>(`${SUPPLIERS_ENDPOINT}/options`),
  });
}

export function useSaveSupplier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: Partial<SupplierBody> }) =>
      api<Answer<Supplier>>(id ? `${SUPPLIERS_ENDPOINT}/${enc(id)}` : SUPPLIERS_ENDPOINT, {
        method: id ? 'PUT' : 'POST',
        body,
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(supplierKeys.detail(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: supplierKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: supplierKeys.options() });
    },
  });
}
