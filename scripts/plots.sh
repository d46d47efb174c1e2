#!/bin/sh
# plots.sh [RESULTS] - gnuplot figures from the CSV files in RESULTS into
# RESULTS/figures/: for each board the histogram on a linear and a log scale
# (RESULTS/histograms/*.csv), all boards normalised in one figure, and
# h-versus-d heat maps from the joint tables (RESULTS/joint/*.csv).  SVG for
# papers, PNG for a quick look.
#
# RESULTS is a directory, relative to the current one (default: the
# repository's results/); the script runs from anywhere.  A figure is named
# after its CSV file with ':' written '-' and '+' written '_' (a joint
# table of pdb:a+b gives joint-...-pdb-a_b.svg), so every name is a plain
# file name.  A directory without CSV files is refused (exit 2), never
# plotted as a file named '*'.  Installs gnuplot-nox with apt-get when
# missing and run as root; otherwise says how (exit 1).
set -eu
res=${1:-$(dirname "$0")/../results}
if [ ! -d "$res" ]; then
    echo "plots: $res is not a directory (plots.sh [RESULTS]: a directory with histograms/*.csv or joint/*.csv)" >&2
    exit 2
fi
# from here on paths are relative to RESULTS, so that a figure names its
# CSV file the same wherever RESULTS is (an SVG keeps the plot command)
cd "$res"
res=$(pwd)
have_csv() { for f in "$1"/*.csv; do [ -f "$f" ] && return 0; done; return 1; }
if ! have_csv histograms && ! have_csv joint; then
    echo "plots: no CSV files in $res/histograms or $res/joint: nothing to plot" >&2
    exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -qq --no-install-recommends gnuplot-nox >/dev/null
    else
        echo "plots: gnuplot is missing: sudo apt-get install gnuplot-nox (or make deps as root)" >&2
        exit 1
    fi
fi
fig=figures
mkdir -p "$fig"
common='set datafile separator ","; set grid; set border 3; set tics nomirror'

# A path or name inside a gnuplot string in single quotes ('' is one quote).
q() { printf '%s' "$1" | sed "s/'/''/g"; }
# A figure's file name from a CSV's name: no ':' or '+'.
plain() { printf '%s' "$1" | tr ':+' '-_'; }

for csv in histograms/*.csv; do
    [ -f "$csv" ] || continue
    b=$(basename "$csv" .csv)
    out=$(plain "$b")
    for scale in linear log; do
        logcmd=""; suffix=""
        [ $scale = log ] && { logcmd="set logscale y; set format y '10^{%L}'"; suffix="-log"; }
        for term in "svg size 640,400 dynamic font 'sans,11'" "pngcairo size 800,500"; do
            ext=${term%% *}; [ "$ext" = pngcairo ] && ext=png
            gnuplot -e "$common; set terminal $term; set output '$(q "$fig/hist-$out$suffix.$ext")';
                $logcmd; set xrange [-1:*]; set offsets 0, 1, 0, 0; set xlabel 'distance from the goal (moves)'; set ylabel 'boards';
                set title '$(q "Boards of the $b puzzle by distance ($scale scale)")' noenhanced;
                set style fill solid 0.6; set boxwidth 0.8; unset key;
                plot '$(q "$csv")' every ::1 using 1:2 with boxes lc rgb '#3060a0'"
        done
    done
done

# all boards: density (share of the boards times radius + 1) against
# distance / radius, so boards of different radius compare; one orientation
# of each shape (R x C and C x R have the same histogram)
plot=""
for csv in histograms/*.csv; do
    [ -f "$csv" ] || continue
    b=$(basename "$csv" .csv)
    case $b in *-*) continue ;; esac # other goals (3x3-centre) are not in this figure
    case $b in [0-9]*x[0-9]*) ;; *) continue ;; esac
    [ "${b%x*}" -le "${b#*x}" ] || continue
    total=$(grep -v '^#' "$csv" | awk -F, 'NR > 1 { s += $2 } END { print s }')
    radius=$(grep -v '^#' "$csv" | awk -F, 'NR > 1 { r = $1 } END { print r }')
    plot="$plot${plot:+, }'$(q "$csv")' every ::1 using (\$1/$radius):(\$2*($radius+1)/$total) with linespoints pt 7 ps 0.4 title '$b'"
done
if [ -n "$plot" ]; then
    for term in "svg size 720,450 dynamic font 'sans,11'" "pngcairo size 900,560"; do
        ext=${term%% *}; [ "$ext" = pngcairo ] && ext=png
        gnuplot -e "$common; set terminal $term; set output '$(q "$fig/histograms-normalised.$ext")';
            set xlabel 'distance / radius'; set ylabel 'share of boards x (radius + 1)';
            set title 'Distance distributions, normalised'; set key top left;
            plot $plot"
    done
fi

# heat maps of the joint (d, h) tables
for csv in joint/*.csv; do
    [ -f "$csv" ] || continue
    name=$(basename "$csv" .csv)
    out=$(plain "$name")
    for term in "svg size 600,500 dynamic font 'sans,11'" "pngcairo size 700,600"; do
        ext=${term%% *}; [ "$ext" = pngcairo ] && ext=png
        gnuplot -e "$common; set terminal $term; set output '$(q "$fig/joint-$out.$ext")';
            set xlabel 'exact distance d'; set ylabel 'heuristic h';
            set title '$(q "Boards by (d, h): $name")' noenhanced; set logscale cb; set cblabel 'boards';
            set palette rgbformulae 33,13,10; set size ratio -1;
            plot '$(q "$csv")' every ::1 using 1:2:3 with points pt 5 ps 0.5 palette notitle,
                 x with lines lc rgb 'black' dt 2 title 'h = d'"
    done
done
echo "plots: wrote $res/$fig" >&2
