import os
import sys


def main():
    print(os.getcwd())
