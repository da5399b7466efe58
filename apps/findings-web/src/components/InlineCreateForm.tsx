import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';

export interface InlineField<K extends string> {
  name: K;
  label: string;
  required?: boolean;
}

/**
 * A one-line form of text fields and a submit button (new project, new product). The button
 * names the form; the fields are cleared once `onCreate` succeeds and kept when it fails (the
 * caller shows the error).
 */
export function InlineCreateForm<K extends string>({
  label,
  fields,
  pending,
  onCreate,
}: {
  label: string;
  fields: readonly InlineField<K>[];
  pending: boolean;
  onCreate(values: Record<K, string>): Promise<unknown>;
}) {
  const empty = () => Object.fromEntries(fields.map((f) => [f.name, ''])) as Record<K, string>;
  const [values, setValues] = useState(empty);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onCreate(values).then(
          () => setValues(empty()),
          () => undefined,
        );
      }}
      aria-label={label}
    >
      <Group align="end" gap="xs">
        {fields.map((field) => (
          <TextInput
            key={field.name}
            size="xs"
            required={field.required}
            label={field.label}
            value={values[field.name]}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setValues((prev) => ({ ...prev, [field.name]: value }));
            }}
          />
        ))}
        <Button size="xs" type="submit" loading={pending}>
          {label}
        </Button>
      </Group>
    </form>
  );
}
