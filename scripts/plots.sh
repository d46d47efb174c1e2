#!/bin/sh
# plots.sh [RESULTS] - gnuplot figures from the CSV files in RESULTS
# (default results/) into RESULTS/figures/: for each board the histogram on
# a linear and a log scale, all boards normalised in one figure, and h-versus-d
# heat maps from the joint tables.  SVG for papers, PNG for a quick look.
# Installs gnuplot-nox with apt-get when missing and run as root.
set -eu
cd "$(dirname "$0")/.."
res=${1:-results}
if ! command -v gnuplot >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -qq --no-install-recommends gnuplot-nox >/dev/null
    else
        echo "plots: gnuplot is missing: sudo apt-get install gnuplot-nox" >&2
        exit 1
    fi
fi
fig=$res/figures
mkdir -p "$fig"
common='set datafile separator ","; set grid; set border 3; set tics nomirror'

for csv in "$res"/histograms/*.csv; do
    b=$(basename "$csv" .csv)
    for scale in linear log; do
        logcmd=""; suffix=""
        [ $scale = log ] && { logcmd="set logscale y; set format y '10^{%L}'"; suffix="-log"; }
        for term in "svg size 640,400 dynamic font 'sans,11'" "pngcairo size 800,500"; do
            ext=${term%% *}; [ "$ext" = pngcairo ] && ext=png
            gnuplot -e "$common; set terminal $term; set output '$fig/hist-$b$suffix.$ext';
                $logcmd; set xrange [-1:*]; set offsets 0, 1, 0, 0; set xlabel 'distance from the goal (moves)'; set ylabel 'boards';
                set title 'Boards of the $b puzzle by distance ($scale scale)';
                set style fill solid 0.6; set boxwidth 0.8; unset key;
                plot '$csv' every ::1 using 1:2 with boxes lc rgb '#3060a0'"
        done
    done
done

# all boards: density (share of the boards times radius + 1) against
# distance / radius, so boards of different radius compare; one orientation
# of each shape (R x C and C x R have the same histogram)
plot=""
for csv in "$res"/histograms/*.csv; do
    b=$(basename "$csv" .csv)
    case $b in *-*) continue ;; esac # other goals (3x3-centre) are not in this figure
    [ "${b%x*}" -le "${b#*x}" ] || continue
    total=$(grep -v '^#' "$csv" | awk -F, 'NR > 1 { s += $2 } END { print s }')
    radius=$(grep -v '^#' "$csv" | awk -F, 'NR > 1 { r = $1 } END { print r }')
    plot="$plot${plot:+, }'$csv' every ::1 using (\$1/$radius):(\$2*($radius+1)/$total) with linespoints pt 7 ps 0.4 title '$b'"
done
for term in "svg size 720,450 dynamic font 'sans,11'" "pngcairo size 900,560"; do
    ext=${term%% *}; [ "$ext" = pngcairo ] && ext=png
    gnuplot -e "$common; set terminal $term; set output '$fig/histograms-normalised.$ext';
        set xlabel 'distance / radius'; set ylabel 'share of boards x (radius + 1)';
        set title 'Distance distributions, normalised'; set key top left;
        plot $plot"
done

# heat maps of the joint (d, h) tables
for csv in "$res"/joint/*.csv; do
    [ -f "$csv" ] || continue
    name=$(basename "$csv" .csv)
    for term in "svg size 600,500 dynamic font 'sans,11'" "pngcairo size 700,600"; do
        ext=${term%% *}; [ "$ext" = pngcairo ] && ext=png
        gnuplot -e "$common; set terminal $term; set output '$fig/joint-$name.$ext';
            set xlabel 'exact distance d'; set ylabel 'heuristic h';
            set title 'Boards by (d, h): $name'; set logscale cb; set cblabel 'boards';
            set palette rgbformulae 33,13,10; set size ratio -1;
            plot '$csv' every ::1 using 1:2:3 with points pt 5 ps 0.5 palette notitle,
                 x with lines lc rgb 'black' dt 2 title 'h = d'"
    done
done
echo "plots: wrote $fig" >&2
