#!/bin/sh
echo "browser tests: not yet"
