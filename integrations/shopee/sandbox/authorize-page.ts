/**
 * The sandbox's stand-in for Shopee's seller login and "Confirm Authorization" page: one card per shop,
 * "Authorize <shop name> for <partner>", with an Authorize button that posts back to the sandbox, which then
 * redirects to the partner's `redirect` URL with `code` and `shop_id` as Shopee does.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export interface AuthorizeCard {
  shopId: number;
  shopName: string;
  /** Hidden form fields the sandbox checks when the button is pressed. */
  fields: Record<string, string>;
}

export function authorizePage(input: {
  partnerName: string;
  action: string;
  cards: readonly AuthorizeCard[];
}): string {
  const cards = input.cards
    .map((card) => {
      const hidden = Object.entries(card.fields)
        .map(
          ([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
        )
        .join('');
      const title = `Authorize ${escapeHtml(card.shopName)} for ${escapeHtml(input.partnerName)}`;
      return `<form class="card" method="post" action="${escapeHtml(input.action)}" aria-label="${title}">
  <h2>${title}</h2>
  <p>${escapeHtml(input.partnerName)} will be able to read this shop's orders and arrange their shipment. Shop ID ${card.shopId}.</p>
  ${hidden}
  <button type="submit">Authorize</button>
</form>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shopee Open Platform (sandbox) - Authorization</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f5f5f5; margin: 0; padding: 2rem; color: #222; }
  header { color: #ee4d2d; font-weight: 700; font-size: 1.4rem; margin-bottom: 1.5rem; }
  .card { background: #fff; border-radius: 6px; padding: 1.25rem 1.5rem; margin-bottom: 1rem; max-width: 34rem;
          box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  .card h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
  button { background: #ee4d2d; color: #fff; border: 0; border-radius: 4px; padding: .6rem 1.4rem; font-size: 1rem; cursor: pointer; }
</style>
</head>
<body>
<header>Shopee Open Platform · sandbox</header>
${cards || '<p>This sandbox has no shops yet.</p>'}
</body>
</html>
`;
}
