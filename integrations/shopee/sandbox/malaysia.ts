import type { ShopeeRecipientAddress } from '../schemas';
import type { SeededRandom } from './random';

/**
 * Malaysian buyers for the sandbox's orders: names as Malaysians write them (Malay "bin/binti", Chinese surname
 * first, Indian "a/l" / "a/p", Iban "anak" and Kadazan-Dusun names in Sabah and Sarawak), mobile numbers, and
 * addresses with a real city and a postcode of that city's range.
 *
 * The states are the MyInvois state table (LHDN codes 01–16; 17 "Not Applicable" is not a place), weighted
 * roughly by population, so most orders go to the Klang Valley and Johor as they do in practice.
 */

export interface MalaysianState {
  /** LHDN MyInvois state code. */
  code: string;
  name: string;
  weight: number;
  /** East Malaysia: other names, and dearer shipping. */
  east: boolean;
  /** City, and the postcodes delivered there (inclusive range). */
  cities: readonly (readonly [city: string, from: number, to: number])[];
}

export const MALAYSIAN_STATES: readonly MalaysianState[] = [
  {
    code: '01',
    name: 'Johor',
    weight: 12,
    east: false,
    cities: [
      ['Johor Bahru', 80000, 80400],
      ['Skudai', 81300, 81310],
      ['Kulai', 81000, 81009],
      ['Pasir Gudang', 81700, 81750],
      ['Batu Pahat', 83000, 83010],
      ['Muar', 84000, 84010],
      ['Segamat', 85000, 85010],
      ['Kluang', 86000, 86009],
    ],
  },
  {
    code: '02',
    name: 'Kedah',
    weight: 6,
    east: false,
    cities: [
      ['Alor Setar', 5000, 5400],
      ['Langkawi', 7000, 7100],
      ['Sungai Petani', 8000, 8010],
      ['Kulim', 9000, 9010],
    ],
  },
  {
    code: '03',
    name: 'Kelantan',
    weight: 5,
    east: false,
    cities: [
      ['Kota Bharu', 15000, 15400],
      ['Pasir Mas', 17000, 17070],
      ['Tanah Merah', 17500, 17510],
    ],
  },
  {
    code: '04',
    name: 'Melaka',
    weight: 3,
    east: false,
    cities: [
      ['Melaka', 75000, 75460],
      ['Jasin', 77000, 77010],
      ['Alor Gajah', 78000, 78009],
    ],
  },
  {
    code: '05',
    name: 'Negeri Sembilan',
    weight: 4,
    east: false,
    cities: [
      ['Seremban', 70000, 70450],
      ['Port Dickson', 71000, 71010],
      ['Nilai', 71800, 71800],
    ],
  },
  {
    code: '06',
    name: 'Pahang',
    weight: 5,
    east: false,
    cities: [
      ['Kuantan', 25000, 25350],
      ['Raub', 27600, 27630],
      ['Temerloh', 28000, 28050],
      ['Bentong', 28700, 28730],
    ],
  },
  {
    code: '07',
    name: 'Pulau Pinang',
    weight: 5,
    east: false,
    cities: [
      ['George Town', 10000, 10470],
      ['Jelutong', 11600, 11600],
      ['Bayan Lepas', 11900, 11960],
      ['Butterworth', 12000, 12300],
      ['Bukit Mertajam', 14000, 14400],
    ],
  },
  {
    code: '08',
    name: 'Perak',
    weight: 8,
    east: false,
    cities: [
      ['Ipoh', 30000, 31650],
      ['Kampar', 31900, 31910],
      ['Sitiawan', 32000, 32010],
      ['Taiping', 34000, 34010],
      ['Teluk Intan', 36000, 36010],
    ],
  },
  {
    code: '09',
    name: 'Perlis',
    weight: 1,
    east: false,
    cities: [
      ['Kangar', 1000, 1990],
      ['Arau', 2600, 2609],
    ],
  },
  {
    code: '10',
    name: 'Selangor',
    weight: 22,
    east: false,
    cities: [
      ['Shah Alam', 40000, 40470],
      ['Klang', 41000, 41300],
      ['Kajang', 43000, 43009],
      ['Seri Kembangan', 43300, 43300],
      ['Bangi', 43650, 43650],
      ['Sepang', 43900, 43900],
      ['Petaling Jaya', 46000, 47400],
      ['Puchong', 47100, 47190],
      ['Subang Jaya', 47500, 47650],
      ['Rawang', 48000, 48020],
      ['Cyberjaya', 63000, 63300],
      ['Ampang', 68000, 68000],
    ],
  },
  {
    code: '11',
    name: 'Terengganu',
    weight: 4,
    east: false,
    cities: [
      ['Kuala Terengganu', 20000, 21300],
      ['Dungun', 23000, 23050],
      ['Kemaman', 24000, 24010],
    ],
  },
  {
    code: '12',
    name: 'Sabah',
    weight: 8,
    east: true,
    cities: [
      ['Kota Kinabalu', 88000, 88999],
      ['Penampang', 89500, 89509],
      ['Sandakan', 90000, 90009],
      ['Tawau', 91000, 91009],
    ],
  },
  {
    code: '13',
    name: 'Sarawak',
    weight: 8,
    east: true,
    cities: [
      ['Kuching', 93000, 93990],
      ['Sibu', 96000, 96009],
      ['Bintulu', 97000, 97015],
      ['Miri', 98000, 98009],
    ],
  },
  {
    code: '14',
    name: 'Wilayah Persekutuan Kuala Lumpur',
    weight: 7,
    east: false,
    cities: [
      ['Kuala Lumpur', 50000, 50990],
      ['Kepong', 52100, 52100],
      ['Setapak', 53300, 53300],
      ['Bukit Bintang', 55100, 55100],
      ['Cheras', 56000, 56100],
      ['Sri Petaling', 57000, 57000],
      ['Bangsar', 59100, 59100],
    ],
  },
  {
    code: '15',
    name: 'Wilayah Persekutuan Labuan',
    weight: 0.3,
    east: true,
    cities: [['Labuan', 87000, 87033]],
  },
  {
    code: '16',
    name: 'Wilayah Persekutuan Putrajaya',
    weight: 0.5,
    east: false,
    cities: [['Putrajaya', 62000, 62988]],
  },
];

// ---- names ----

const MALAY_MEN = [
  'Ahmad',
  'Muhammad',
  'Mohd Faizal',
  'Amirul',
  'Hafiz',
  'Azlan',
  'Khairul',
  'Syafiq',
  'Firdaus',
  'Zulkifli',
  'Haziq',
  'Iskandar',
  'Rizal',
  'Aiman',
  'Hakim',
];
const MALAY_WOMEN = [
  'Nurul Aisyah',
  'Siti Nurhaliza',
  'Nur Farah',
  'Aisyah',
  'Fatimah',
  'Nabila',
  'Syazwani',
  'Amira',
  'Nurul Hidayah',
  'Izzati',
  'Zulaikha',
  'Farhana',
  'Nadia',
  'Nur Aina',
  'Liyana',
];
const MALAY_FATHERS = [
  'Ismail',
  'Hassan',
  'Abdullah',
  'Abdul Rahman',
  'Yusof',
  'Ibrahim',
  'Othman',
  'Hamzah',
  'Salleh',
  'Ali',
  'Rosli',
  'Kamarudin',
  'Zainal',
  'Aziz',
  'Mahmud',
];
const CHINESE_SURNAMES = [
  'Tan',
  'Lim',
  'Lee',
  'Wong',
  'Ng',
  'Chong',
  'Chan',
  'Ong',
  'Teh',
  'Goh',
  'Yap',
  'Chin',
  'Leong',
  'Lau',
  'Khoo',
  'Teoh',
  'Cheah',
  'Loh',
  'Yeoh',
  'Foo',
];
const CHINESE_GIVEN = [
  'Wei Ming',
  'Mei Ling',
  'Jia Hui',
  'Kah Wai',
  'Siew Lan',
  'Chee Keong',
  'Hui Min',
  'Jun Hao',
  'Xin Yi',
  'Boon Huat',
  'Li Ting',
  'Zhi Wei',
  'Kok Leong',
  'Pei Shan',
  'Yong Sheng',
];
const INDIAN_MEN = [
  'Rajesh',
  'Suresh',
  'Kumar',
  'Ganesh',
  'Arun',
  'Vinod',
  'Ravi',
  'Sathish',
  'Prakash',
  'Kavin',
];
const INDIAN_WOMEN = [
  'Priya',
  'Kavitha',
  'Deepa',
  'Shalini',
  'Revathi',
  'Anitha',
  'Lakshmi',
  'Thivya',
  'Nisha',
  'Malar',
];
const INDIAN_FATHERS = [
  'Subramaniam',
  'Krishnan',
  'Muniandy',
  'Rajendran',
  'Ramasamy',
  'Govindasamy',
  'Arumugam',
  'Selvaraj',
  'Nair',
  'Pillai',
];
const IBAN_GIVEN = ['Jimmy', 'Michael', 'Agnes', 'Grace', 'Robert', 'Margaret', 'Dennis', 'Christina'];
const IBAN_FATHERS = ['Jugah', 'Nyandang', 'Ungkok', 'Sulang', 'Bujang', 'Linggang', 'Entili', 'Unggang'];
const KADAZAN_GIVEN = ['Joanna', 'Stanley', 'Vivian', 'Bernard', 'Juliana', 'Ewon', 'Rosnah', 'Clarence'];
const KADAZAN_SURNAMES = [
  'Majimbun',
  'Gimbang',
  'Sipaun',
  'Mojuntin',
  'Kitingan',
  'Tangau',
  'Lasimbang',
  'Sinsua',
];

export interface Buyer {
  name: string;
  username: string;
  phone: string;
}

function buyerName(random: SeededRandom, state: MalaysianState): { name: string; handle: string } {
  const community = random.weighted<'malay' | 'chinese' | 'indian' | 'east'>(
    state.east
      ? [
          ['east', 55],
          ['malay', 25],
          ['chinese', 18],
          ['indian', 2],
        ]
      : [
          ['malay', 60],
          ['chinese', 27],
          ['indian', 10],
          ['east', 3],
        ],
  );
  const woman = random.chance(0.55);
  switch (community) {
    case 'malay': {
      const given = random.pick(woman ? MALAY_WOMEN : MALAY_MEN);
      return { name: `${given} ${woman ? 'binti' : 'bin'} ${random.pick(MALAY_FATHERS)}`, handle: given };
    }
    case 'chinese': {
      const surname = random.pick(CHINESE_SURNAMES);
      const given = random.pick(CHINESE_GIVEN);
      return { name: `${surname} ${given}`, handle: `${given}${surname}` };
    }
    case 'indian': {
      const given = random.pick(woman ? INDIAN_WOMEN : INDIAN_MEN);
      return { name: `${given} ${woman ? 'a/p' : 'a/l'} ${random.pick(INDIAN_FATHERS)}`, handle: given };
    }
    case 'east': {
      if (state.name === 'Sarawak' || random.chance(0.3)) {
        const given = random.pick(IBAN_GIVEN);
        return { name: `${given} anak ${random.pick(IBAN_FATHERS)}`, handle: given };
      }
      const given = random.pick(KADAZAN_GIVEN);
      const surname = random.pick(KADAZAN_SURNAMES);
      return { name: `${given} ${surname}`, handle: `${given}${surname}` };
    }
    default: {
      const never: never = community;
      throw new Error(`unknown community ${String(never)}`);
    }
  }
}

/** A Malaysian mobile number as Shopee shows it: country code, no plus, no spaces (6012…, 6011 has one more digit). */
function mobile(random: SeededRandom): string {
  const prefix = random.pick(['10', '11', '12', '13', '14', '16', '17', '18', '19']);
  return `601${prefix.slice(1)}${random.chars('0123456789', prefix === '11' ? 8 : 7)}`;
}

// ---- addresses ----

const STREETS = [
  'Jalan Mawar',
  'Jalan Kenanga',
  'Jalan Melati',
  'Jalan Cempaka',
  'Jalan Seroja',
  'Jalan Dahlia',
  'Jalan Anggerik',
  'Jalan Bunga Raya',
  'Lorong Merbau',
  'Jalan Meranti',
  'Jalan Cengal',
  'Jalan Jati',
  'Jalan Setia',
  'Jalan Harmoni',
  'Jalan Bestari',
  'Jalan Damai',
  'Jalan Merdeka',
  'Jalan Sultan',
  'Jalan Pasar',
  'Jalan Stesen',
];
const NEIGHBOURHOODS = [
  'Taman Desa',
  'Taman Melawati',
  'Taman Sri Muda',
  'Taman Bukit Indah',
  'Taman Megah',
  'Taman Sentosa',
  'Taman Universiti',
  'Taman Seri Putra',
  'Taman Mutiara',
  'Taman Permai',
  'Bandar Baru',
  'Kampung Baru',
  'Taman Bahagia',
  'Taman Harmoni',
  'Taman Ria',
];
const RESIDENCES = [
  'Residensi Harmoni',
  'Pangsapuri Seri Mas',
  'Kondominium Vista',
  'Apartment Sri Indah',
  'Residensi Bayu',
];

export interface BuyerAndAddress {
  buyer: Buyer;
  state: MalaysianState;
  address: ShopeeRecipientAddress;
}

export function malaysianBuyer(random: SeededRandom): BuyerAndAddress {
  const state = random.weighted(MALAYSIAN_STATES.map((s) => [s, s.weight] as const));
  const [city, from, to] = random.pick(state.cities);
  const zipcode = String(random.int(from, to)).padStart(5, '0');
  const { name, handle } = buyerName(random, state);
  const town = random.pick(NEIGHBOURHOODS);
  const street = `${random.pick(STREETS)} ${random.int(1, 24)}`;
  const line = random.chance(0.25)
    ? `${random.pick(['A', 'B', 'C'])}-${random.int(1, 25)}-${random.int(1, 12)}, ${random.pick(RESIDENCES)}, ${street}`
    : `No. ${random.int(1, 250)}, ${street}`;
  const phone = mobile(random);
  const username = `${handle.toLowerCase().replace(/[^a-z]+/g, random.pick(['', '.', '_']))}${random.int(1, 99)}`;
  return {
    buyer: { name, username, phone },
    state,
    address: {
      name,
      phone,
      town,
      district: '',
      city,
      state: state.name,
      region: 'MY',
      zipcode,
      full_address: `${line}, ${town}, ${zipcode} ${city}, ${state.name}`,
    },
  };
}
