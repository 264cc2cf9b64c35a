import { addressLines } from '@domain/printing/address';
import { describe, expect, it } from 'vitest';

const address = {
  name: 'Nur Aisyah',
  phone: '+60123456789',
  fullAddress: '12 Jalan Ampang, 50450 Kuala Lumpur, Wilayah Persekutuan',
  city: 'Kuala Lumpur',
  state: 'Wilayah Persekutuan',
  postalCode: '50450',
  country: 'MY',
};

describe('printed address', () => {
  it('prints the postcode, city and state once when the full address holds them', () => {
    expect(addressLines(address)).toEqual([
      'Nur Aisyah',
      '+60123456789',
      '12 Jalan Ampang, 50450 Kuala Lumpur, Wilayah Persekutuan',
      'MY',
    ]);
  });

  it('adds the parts the full address leaves out, whole words only', () => {
    expect(
      addressLines({
        ...address,
        fullAddress: 'Unit 5, 123 Rizal St (Lot 504501)',
        city: 'Makati',
        state: 'Metro Manila',
        postalCode: '50450',
        country: 'PH',
        barangay: 'Poblacion',
        email: 'buyer@example.ph',
      }),
    ).toEqual([
      'Nur Aisyah',
      '+60123456789',
      'Unit 5, 123 Rizal St (Lot 504501)',
      '50450 Makati',
      'Poblacion, Metro Manila, PH',
      'buyer@example.ph',
    ]);
  });
});
