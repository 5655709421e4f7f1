package chat.buzz.bench.scale;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;

/** scale.svg for {@link ScaleReport}: the main latencies against the number of artifacts, log-log. */
final class ScaleChart {
    private ScaleChart() {}

    /** Lines of the chart: label, JSON path. */
    private static final List<String[]> SERIES = List.of(
            new String[] {"bootstrap", "bootstrap/ms"},
            new String[] {"SQL floor", "sql_floor/ms"},
            new String[] {"current reload", "current_reload/ms"},
            new String[] {"delta after bootstrap (median)", "delta_after_bootstrap/median_ms"},
            new String[] {"delta after overlap (median)", "delta_after_overlap/median_ms"},
            new String[] {"known-ID 100 (median)", "known_id_100/median_ms"},
            new String[] {"trivial signed request", "trivial/median_ms"});

    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#7f7f7f"
    };

    /** A log-log line chart of the latencies in {@link #SERIES} against the number of artifacts. */
    static String chart(List<JsonNode> sizes) {
        int width = 760;
        int height = 440;
        int left = 70;
        int right = 250;
        int top = 30;
        int bottom = 50;
        double minX = Math.log10(500);
        double maxX = Math.log10(200_000);
        double minY = -1;
        double maxY = 5;
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                        + " font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n"
                        + "<text x=\"%d\" y=\"18\" font-size=\"13\">Buzz relay at the reference shape:"
                        + " milliseconds against artifacts (log-log)</text>%n",
                width,
                height,
                left));
        int plotWidth = width - left - right;
        int plotHeight = height - top - bottom;
        java.util.function.DoubleUnaryOperator x = v -> left + (Math.log10(v) - minX) / (maxX - minX) * plotWidth;
        java.util.function.DoubleUnaryOperator y =
                v -> top + plotHeight - (Math.log10(Math.max(v, 0.1)) - minY) / (maxY - minY) * plotHeight;
        for (int e = (int) minY; e <= maxY; e++) {
            double py = y.applyAsDouble(Math.pow(10, e));
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s ms</text>%n",
                    left,
                    left + plotWidth,
                    py,
                    py,
                    left - 6,
                    py + 4,
                    e < 0 ? "0.1" : String.format(Locale.ROOT, "%,d", (long) Math.pow(10, e))));
        }
        for (long size : new long[] {1_000, 10_000, 100_000}) {
            double px = x.applyAsDouble(size);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%,d</text>%n",
                    px,
                    px,
                    top,
                    top + plotHeight,
                    px,
                    top + plotHeight + 16,
                    size));
        }
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">artifacts</text>%n",
                left + plotWidth / 2,
                height - 12));
        for (int s = 0; s < SERIES.size(); s++) {
            StringBuilder points = new StringBuilder();
            for (JsonNode size : sizes) {
                JsonNode value = ScaleReport.at(size, SERIES.get(s)[1]);
                if (value.isNumber()) {
                    double px = x.applyAsDouble(size.path("artifacts").asDouble());
                    double py = y.applyAsDouble(value.asDouble());
                    points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                    svg.append(String.format(
                            Locale.ROOT,
                            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n",
                            px,
                            py,
                            COLOURS[s]));
                }
            }
            svg.append(String.format(
                    Locale.ROOT,
                    "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\"" + " stroke-width=\"2\"/>%n",
                    points.toString().trim(),
                    COLOURS[s]));
            int ly = top + 10 + s * 18;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\""
                            + " stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
                    left + plotWidth + 12,
                    left + plotWidth + 32,
                    ly,
                    ly,
                    COLOURS[s],
                    left + plotWidth + 38,
                    ly + 4,
                    SERIES.get(s)[0]));
        }
        return svg.append("</svg>\n").toString();
    }
}
