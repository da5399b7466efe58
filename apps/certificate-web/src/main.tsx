import '@mantine/core/styles.css';
import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { setLocaleHeader } from './api/session';
import { I18nProvider, initialLocale } from './i18n/i18n';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
  },
});

// The findings UI's theme: dense, primary colour dark enough for WCAG AA text contrast.
const theme = createTheme({ primaryColor: 'indigo', primaryShade: 8, defaultRadius: 'sm' });

// Mantine's "dimmed" (gray 6) and error (red 6) texts are below the WCAG AA contrast of 4.5:1
// on white: gray 7 and red 9.
const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7], '--mantine-color-error': t.colors.red[9] },
  dark: {},
});

// The UI language before any API call.
setLocaleHeader(initialLocale());

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <QueryClientProvider client={queryClient}>
          <I18nProvider>
            <BrowserRouter>
              <App />
            </BrowserRouter>
          </I18nProvider>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
}
