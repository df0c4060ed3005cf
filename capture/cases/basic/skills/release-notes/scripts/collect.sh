#!/bin/sh
echo collect
