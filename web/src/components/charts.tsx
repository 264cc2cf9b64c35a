import { type AgChartOptions, AllCommunityModule, ModuleRegistry } from 'ag-charts-community';
import { AgCharts } from 'ag-charts-react';
import './charts.css';

// AG Charts Community, the ag-grid family's charts: every series and axis the console draws, registered once.
ModuleRegistry.registerModules([AllCommunityModule]);

/**
 * A chart of the console: AG Charts drawn on a canvas, inside a figure named for assistive technology (the canvas
 * itself says nothing to a screen reader), with the console's font and a transparent background.
 */
export function Chart({
  label,
  options,
  height = 280,
}: {
  label: string;
  options: AgChartOptions;
  height?: number;
}) {
  return (
    <figure className="chart" aria-label={label} style={{ height }}>
      <AgCharts
        options={
          {
            background: { visible: false },
            ...options,
            theme: {
              baseTheme: 'ag-default',
              params: { fontFamily: 'inherit' },
            },
          } as AgChartOptions
        }
        style={{ height: '100%', width: '100%' }}
      />
    </figure>
  );
}
