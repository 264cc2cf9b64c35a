import {
  type CategoryChoice,
  type CategoryOption,
  useCategoryChoice,
  useListingCategories,
} from '@web/api/listings';
import { SelectField, TextField } from '@web/shell/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The listing editor's category (issue 15): the first chosen store's category tree from its marketplace, searched
 * by path ("Women's Clothing > Tops") with only last-level categories to pick; then the chosen category's mandatory
 * attributes as fields and its brand list. Without a store, or when the store's marketplace cannot be read, the
 * category is typed by id as before (the save still checks it once the store can be read).
 */

/** An attribute's value in the form: one of its values by id, or one's own text (id ''), with its unit. */
export interface AttributeInput {
  value_id: string;
  name: string;
  unit: string;
}

interface Props {
  storeId: string | null;
  categoryId: string;
  onCategory: (categoryId: string) => void;
  attributes: Record<string, AttributeInput>;
  onAttribute: (attributeId: string, value: AttributeInput) => void;
  brandId: string;
  onBrand: (brand: { id: string; name: string }) => void;
  errors: Record<string, string>;
}

/** Each category's path from the top of the tree. */
function pathsOf(categories: CategoryOption[]): Map<string, string> {
  const byId = new Map(categories.map((category) => [category.id, category]));
  const paths = new Map<string, string>();
  for (const category of categories) {
    const names: string[] = [];
    for (
      let at: CategoryOption | undefined = category;
      at;
      at = at.parent_id ? byId.get(at.parent_id) : undefined
    )
      names.unshift(at.name);
    paths.set(category.id, names.join(' > '));
  }
  return paths;
}

export function CategoryPicker(props: Props) {
  const { t } = useTranslation('listings');
  const categories = useListingCategories(props.storeId);
  const [search, setSearch] = useState('');
  const tree = categories.data;
  const leafChosen = tree?.some((category) => category.leaf && category.id === props.categoryId) ?? false;
  const choice = useCategoryChoice(props.storeId, leafChosen ? props.categoryId : '');

  if (!props.storeId || !tree)
    return (
      <TextField
        label={t('editor.fields.category_id')}
        required
        hint={categories.isError ? t('editor.category_unavailable') : t('editor.category_pick_store')}
        value={props.categoryId}
        onChange={(event) => props.onCategory(event.target.value)}
        error={props.errors.category_id}
      />
    );

  const paths = pathsOf(tree);
  const words = search.trim().toLowerCase();
  const leaves = tree
    .filter(
      (category) =>
        category.leaf &&
        (category.id === props.categoryId || (paths.get(category.id) ?? '').toLowerCase().includes(words)),
    )
    .map((category) => ({ value: category.id, label: paths.get(category.id) ?? category.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (
    <>
      <TextField
        label={t('editor.fields.category_search')}
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <SelectField
        label={t('editor.fields.category')}
        required
        placeholder={t('editor.category_choose')}
        value={leafChosen ? props.categoryId : ''}
        options={leaves}
        onChange={(event) => props.onCategory(event.target.value)}
        error={props.errors.category_id}
      />
      {choice.data && <CategoryFields choice={choice.data} {...props} />}
    </>
  );
}

/** The brand list and the mandatory attributes of the chosen leaf. */
function CategoryFields({ choice, ...props }: Props & { choice: CategoryChoice }) {
  const { t } = useTranslation('listings');
  const attributeValue = (attributeId: string) =>
    props.attributes[attributeId] ?? { value_id: '', name: '', unit: '' };
  return (
    <>
      <SelectField
        label={t('editor.fields.brand_choice')}
        required={choice.brand_mandatory}
        placeholder={t('editor.brand_choose')}
        value={props.brandId}
        options={choice.brands.map((brand) => ({ value: brand.id, label: brand.name }))}
        onChange={(event) => {
          const brand = choice.brands.find((one) => one.id === event.target.value);
          if (brand) props.onBrand(brand);
        }}
        error={props.errors.brand}
      />
      {choice.attributes
        .filter((attribute) => attribute.mandatory)
        .map((attribute) => {
          const value = attributeValue(attribute.id);
          const error = props.errors[attribute.id];
          // A value of one's own is typed; a list without one is chosen from (one value: Shopee's minimum).
          if (attribute.input === 'select' || attribute.input === 'multi_select')
            return (
              <SelectField
                key={attribute.id}
                label={attribute.name}
                required
                placeholder={t('editor.attribute_choose')}
                value={value.value_id}
                options={attribute.values.map((one) => ({ value: one.id, label: one.name }))}
                onChange={(event) => {
                  const picked = attribute.values.find((one) => one.id === event.target.value);
                  props.onAttribute(attribute.id, {
                    value_id: picked?.id ?? '',
                    name: picked?.name ?? '',
                    unit: '',
                  });
                }}
                error={error}
              />
            );
          return (
            <div key={attribute.id} className="listing-attribute">
              <TextField
                label={attribute.name}
                required
                list={attribute.values.length > 0 ? `attribute-${attribute.id}` : undefined}
                value={value.name}
                onChange={(event) => {
                  const typed = event.target.value;
                  const listed = attribute.values.find((one) => one.name === typed);
                  props.onAttribute(attribute.id, {
                    value_id: listed?.id ?? '',
                    name: typed,
                    unit: value.unit || (attribute.units[0] ?? ''),
                  });
                }}
                error={error}
              />
              {attribute.values.length > 0 && (
                <datalist id={`attribute-${attribute.id}`}>
                  {attribute.values.map((one) => (
                    <option key={one.id} value={one.name} />
                  ))}
                </datalist>
              )}
              {attribute.units.length > 0 && (
                <SelectField
                  label={t('editor.attribute_unit', { name: attribute.name })}
                  value={value.unit || attribute.units[0]!}
                  options={attribute.units.map((unit) => ({ value: unit, label: unit }))}
                  onChange={(event) =>
                    props.onAttribute(attribute.id, { ...value, unit: event.target.value })
                  }
                />
              )}
            </div>
          );
        })}
    </>
  );
}
