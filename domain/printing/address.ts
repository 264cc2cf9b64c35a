import type { OrderAddress } from '../orders/marketplace-order';

const contains = (text: string, part: string) => {
  const escaped = part.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return escaped !== '' && new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
};

/**
 * An order's address as printed lines (invoice, packing list, delivery order). Marketplaces give the full address
 * with the postcode, city and state already in it: a part the full address holds is not printed a second time.
 */
export function addressLines(address: OrderAddress): string[] {
  const fresh = (part: string | undefined) => (part && !contains(address.fullAddress, part) ? [part] : []);
  return [
    address.name,
    address.phone,
    address.fullAddress,
    [...fresh(address.postalCode), ...fresh(address.city)].join(' '),
    [
      ...fresh(address.district),
      ...fresh(address.barangay),
      ...fresh(address.state),
      ...fresh(address.country),
    ].join(', '),
    address.email ?? '',
  ].filter((line) => line.trim() !== '');
}
