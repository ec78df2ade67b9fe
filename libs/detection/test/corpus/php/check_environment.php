<?php
/**
 * Check if the PHP environment is acceptable for the development server. If
 * not, return non-zero and print the reason to stdout.
 */
if (!function_exists('bccomp')) {
  echo "The PHP runtime requires the \"bccomp\" function, which is not ";
 