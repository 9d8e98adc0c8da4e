// A line diff of two texts (jsdiff): removed lines struck through on red, added lines on green,
// each marked with − or + so the change reads without colour too.
import { Box, Text } from '@mantine/core';
import { diffLines } from 'diff';

export function DiffView({ label, before, after }: { label: string; before: string; after: string }) {
  const parts = diffLines(before, after);
  const changed = parts.some((part) => part.added || part.removed);
  return (
    <Box component="section" aria-label={`Changes in ${label}`} mb="md">
      <Text fw={600} size="sm" mb={4}>
        {label} {changed ? '' : '(unchanged)'}
      </Text>
      <Box component="pre" style={{ whiteSpace: 'pre-wrap', margin: 0, fontSize: 13, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }}>
        {parts.map((part, index) => {
          const lines = part.value.replace(/\n$/, '').split('\n');
          const mark = part.added ? '+ ' : part.removed ? '− ' : '  ';
          const text = lines.map((line) => mark + line).join('\n');
          if (part.added) return <ins key={index} style={{ display: 'block', textDecoration: 'none', background: 'var(--mantine-color-green-1)', color: '#14532d' }}>{text}</ins>;
          if (part.removed) return <del key={index} style={{ display: 'block', background: 'var(--mantine-color-red-1)', color: '#7f1d1d' }}>{text}</del>;
          return <span key={index} style={{ display: 'block' }}>{text}</span>;
        })}
      </Box>
    </Box>
  );
}
